"""Signing in to the dashboard: with a second factor, every refusal said in words (wrong password,
owner account, throttled with the wait from Retry-After, an expired or used 2FA challenge, after
which the sign-in starts again), a 401 in the middle of a session leads back to sign-in without
losing the cart on screen, sign-out, and the agent's own access tokens."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import expect

from apps.accounts import services as account_services
from apps.accounts.models import LoginChallenge
from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in, sign_in_and_go_available
from tests.support.auth import current_code, enrol_totp
from tests.support.private_servers import wait_until

pytestmark = pytest.mark.live


def test_an_agent_with_2fa_signs_in_with_the_current_code(world, serve, open_dashboard):
    [agent] = world.agents
    device = enrol_totp(agent)
    server = serve()
    page = open_dashboard(server)
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#signin-email")).to_be_focused()

    sign_in(page, agent.email)
    expect(page.locator("#code-step")).to_be_visible()
    page.fill("#signin-code", "000000" if current_code(device) != "000000" else "111111")
    page.click("#signin-submit")
    expect(page.locator("#signin-error")).to_have_text(
        "The authentication code is incorrect. Enter the current code from your app."
    )
    # django-otp refuses every code for 1 s after a wrong one: wait until the device's row (the
    # shared server's, in the live database) lets one through.
    wait_until(lambda: device.refresh_from_db() or device.verify_is_allowed()[0], 10, "the device's 1 s lock")
    page.fill("#signin-code", current_code(device))
    page.click("#signin-submit")
    expect(page.locator("#app")).to_be_visible()
    expect(page.locator("#signin")).to_be_hidden()
    expect(page.locator("#agent-name")).to_have_text(agent.name)
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")  # signing in: at work

    page.reload()  # the cookie session carries over a reload
    expect(page.locator("#app")).to_be_visible()
    page.click("#signout")
    expect(page.locator("#signin")).to_be_visible()
    assert_no_console_errors(page)


def test_an_expired_or_used_2fa_challenge_is_said_in_words_and_sign_in_starts_again(world, serve, open_dashboard):
    [agent] = world.agents
    device = enrol_totp(agent)
    server = serve()
    page = open_dashboard(server)

    def back_at_the_password_step(words: str) -> None:
        expect(page.locator("#signin-error")).to_have_text(words)
        expect(page.locator("#password-step")).to_be_visible()
        expect(page.locator("#code-step")).to_be_hidden()
        expect(page.locator("#signin-submit")).to_have_text("Sign in")
        expect(page.locator("#signin-email")).to_have_value(agent.email)
        expect(page.locator("#signin-password")).to_have_value("")
        expect(page.locator("#signin-password")).to_be_focused()

    # Expired: the code step was left open longer than the challenge's lifetime.
    sign_in(page, agent.email)
    expect(page.locator("#code-step")).to_be_visible()
    issued = timezone.now() - settings.TWO_FACTOR_CHALLENGE_TTL - timedelta(seconds=1)
    challenges = LoginChallenge.objects.filter(user=agent)
    assert server.update_rows(challenges, created_at=issued, expires_at=issued + settings.TWO_FACTOR_CHALLENGE_TTL) == 1
    page.fill("#signin-code", current_code(device))
    page.click("#signin-submit")
    back_at_the_password_step("The sign-in took too long. Enter your password again.")
    page.fill("#signin-password", factories.PASSWORD)
    page.click("#signin-submit")
    expect(page.locator("#code-step")).to_be_visible()
    page.fill("#signin-code", current_code(device))
    page.click("#signin-submit")
    expect(page.locator("#app")).to_be_visible()
    expect(page.locator("#agent-name")).to_have_text(agent.name)
    page.click("#signout")
    expect(page.locator("#signin")).to_be_visible()

    # Used: a challenge is spent by a sign-in or burnt by TWO_FACTOR_MAX_ATTEMPTS wrong codes
    # (tests/accounts/test_agent_2fa.py; here marked spent at once, the wrong codes' growing lock would take
    # 15 s); even the right code is then refused.
    sign_in(page, agent.email)
    expect(page.locator("#code-step")).to_be_visible()
    pending = LoginChallenge.objects.filter(user=agent, used_at=None, expires_at__gt=timezone.now())
    assert server.update_rows(pending, used_at=timezone.now()) == 1
    page.fill("#signin-code", current_code(device))
    page.click("#signin-submit")
    back_at_the_password_step("That sign-in step was already used. Enter your password again.")
    page.fill("#signin-password", factories.PASSWORD)
    page.click("#signin-submit")
    expect(page.locator("#code-step")).to_be_visible()  # a new challenge: the sign-in started again
    expect(page.locator("#signin-error")).to_be_hidden()
    expect(page.locator("#app")).to_be_hidden()
    assert_no_console_errors(page)


def test_refusals_are_said_in_words_and_the_throttle_wait_is_shown(world, serve, open_dashboard):
    [agent] = world.agents
    owner_user = factories.PanelUserFactory(owner=world.business.owner, email="boss@example.test")
    disabled = factories.AgentFactory(owner=world.business.owner, email="gone@example.test", is_active=False)
    server = serve()
    page = open_dashboard(server)

    sign_in(page, owner_user.email)
    expect(page.locator("#signin-error")).to_have_text("This is an owner panel account: sign in at /panel/ instead.")
    sign_in(page, disabled.email)
    expect(page.locator("#signin-error")).to_have_text(
        "This account has been disabled. Ask your manager to enable it again."
    )

    for _ in range(5):  # the fifth failure within a minute is the last one allowed
        sign_in(page, agent.email, "not-the-password")
        expect(page.locator("#signin-error")).to_have_text("The email or password is incorrect.")
        page.evaluate("document.querySelector('#signin-error').hidden = true")
    sign_in(page, agent.email, "not-the-password")
    expect(page.locator("#signin-error")).to_contain_text("Too many attempts. Try again in")
    wait = int(page.locator("#signin-error").inner_text().split(" in ")[1].split()[0])
    assert 1 <= wait <= 60
    expect(page.locator("#signin-submit")).to_be_disabled()
    expect(page.locator("#app")).to_be_hidden()
    assert_no_console_errors(page)


def test_a_401_mid_session_returns_to_sign_in_and_keeps_the_cart(world, serve, open_dashboard):
    [agent] = world.agents
    server = serve()
    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    session_id = server.start_session(world.kiosk)
    card(page, session_id).locator("button.accept").click()
    page.click("button.menu-item:has-text('Fries')")
    expect(page.locator("#cart-total")).to_have_text("$3.26")

    page.context.clear_cookies()  # the session is gone, as after 30 days or a sign-out elsewhere
    page.locator("#cart-lines li").first.locator("input.notes").fill("no salt")
    page.locator("#cart-lines li").first.locator("input.notes").press("Tab")
    expect(page.locator("#signin")).to_be_visible()
    expect(page.locator("#signin-reason")).to_contain_text("Your session has ended")
    expect(page.locator("#session")).to_be_visible()  # still there, behind the sign-in
    expect(page.locator("#cart-lines li .name")).to_have_text(["Fries"])

    sign_in(page, agent.email)
    expect(page.locator("#signin")).to_be_hidden()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(page.locator("#cart-lines li input.notes")).to_have_value("no salt")
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(page.locator("#cart-error")).to_be_hidden()
    order = server.kiosk_call(world.kiosk, "GET", f"/sessions/{session_id}/order").json()
    assert [(line["name"], line.get("notes")) for line in order["lines"]] == [("Fries", "no salt")]
    assert_no_console_errors(page)


def test_a_reload_restores_the_live_session_and_my_tokens_can_be_revoked(world, serve, open_dashboard):
    [agent] = world.agents
    kept, _ = account_services.access_token_issue(user=agent, name="laptop script")
    revoked, _ = account_services.access_token_issue(user=agent, name="old phone")
    server = serve()
    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    session_id = server.start_session(world.kiosk)
    card(page, session_id).locator("button.accept").click()
    page.click("button.menu-item:has-text('Fries')")
    expect(page.locator("#cart-total")).to_have_text("$3.26")

    page.set_viewport_size({"width": 820, "height": 1180})  # a tablet held upright
    page.reload()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(page.locator("#cart-lines li .name")).to_have_text(["Fries"])
    expect(page.locator("#cart-total")).to_have_text("$3.26")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scrolling

    page.click("button.tab[data-tab='tokens']")
    expect(page.locator("#token-list li")).to_have_count(2)
    page.click(f"#token-list li[data-token-id='{revoked.pk}'] button")
    expect(page.locator("#token-list li")).to_have_count(1)
    expect(page.locator(f"#token-list li[data-token-id='{kept.pk}']")).to_contain_text("laptop script")

    page.click("button.tab[data-tab='queue']")
    page.select_option("#end-reason", "customer_abandoned")
    page.fill("#end-notes", "walked away")
    page.click("#end-session")
    expect(page.locator("#session-result")).to_contain_text("Session abandoned after")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")
    assert_no_console_errors(page)
