"""The agent dashboard's header and Access tokens tab, in a real Chromium against the real server:
"Live updates unavailable" while the socket is refused, and "Live" again within seconds of it
coming back (the dashboard connects afresh on an answered poll rather than wait for pusher-js's
own spaced-out tries: that rule is tests/js/agent-live-link.test.js); the Access tokens tab says
what a token is for, makes one (shown once, and it works on the token API) and revokes it."""

import re
import time

import pytest
import requests
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, sign_in_and_go_available

pytestmark = pytest.mark.live


def test_the_live_label_says_unavailable_while_the_socket_is_refused_and_live_once_it_is_back(
    world, serve, open_dashboard
):
    server = serve()
    blocked = True
    refused = []

    def socket(ws):  # a proxy refusing WebSockets while `blocked`
        if blocked:
            refused.append(ws.url)
            ws.close()
        else:
            ws.connect_to_server()

    def before(page):
        page.route_web_socket(re.compile(r"/app/"), socket)
        page.clock.install()  # runs in real time until the test runs it forward

    page = open_dashboard(server, before=before)
    sign_in_and_go_available(page, world.agents[0])
    expect(page.locator("#live-state")).to_have_attribute("data-state", "polling")
    expect(page.locator("#live-state")).to_have_text("Live updates unavailable: checking every 2 s")
    deadline = time.monotonic() + 15
    while not refused and time.monotonic() < deadline:  # the header speaks of a refused link, not a slow one
        page.wait_for_timeout(100)  # Playwright runs the route's handler while the test waits in it
    assert refused, "the dashboard never tried the socket"

    blocked = False
    # The polls answer (every 2 s) and the link is tried again at most every 5 s: live within ~8 s
    # of the page's clock, which the test runs forward past the 5 s instead of waiting them out.
    page.clock.fast_forward(5_000)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected", timeout=8_000)
    expect(page.locator("#live-state")).to_have_text("Live")
    assert_no_console_errors(page)


def test_the_tokens_tab_explains_makes_and_revokes_a_token(world, serve, open_dashboard):
    [agent] = world.agents
    server = serve()
    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    page.click("button.tab[data-tab='tokens']")
    expect(page.locator("#tokens")).to_contain_text("read this business's orders and webhooks")
    expect(page.locator("#tokens-empty")).to_be_visible()

    page.fill("#token-password", "not my password")
    page.click("#token-create")
    expect(page.locator("#token-error")).to_have_text("The password is incorrect.")
    expect(page.locator("#token-issued")).to_be_hidden()
    expect(page.locator("#app")).to_be_visible()  # a refused password is not a signed-out dashboard
    expect(page.locator("#signin")).to_be_hidden()

    page.fill("#token-password", factories.PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#token-issued")).to_be_visible()
    expect(page.locator("#token-error")).to_be_hidden()
    token = page.input_value("#token-issued-value")
    assert len(token) > 20
    expect(page.locator("#token-list li")).to_have_count(1)
    bearer = {"Authorization": f"Bearer {token}", "Accept": "application/json"}
    used = requests.get(f"{server.url}/api/v1/user", headers=bearer, timeout=10)
    assert used.status_code == 200, used.text
    assert used.json()["email"] == agent.email or used.json().get("user", {}).get("email") == agent.email

    page.click("#token-issued-done")
    expect(page.locator("#token-issued")).to_be_hidden()
    assert page.input_value("#token-issued-value") == ""  # shown once: gone from the page
    page.locator("#token-list li button").click()
    expect(page.locator("#token-list li")).to_have_count(0)
    assert requests.get(f"{server.url}/api/v1/user", headers=bearer, timeout=10).status_code == 401
    assert_no_console_errors(page)
