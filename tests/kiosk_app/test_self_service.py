"""Ordering alone while waiting, in a real Chromium against a live server with the demo processor:
with no agent signed in, the waiting screen offers "Order on your own"; the customer adds items with
their options from the menu, changes quantities, sees the server's totals, pays with the demo card
(a declined card, back to the cart, then a good card) and gets the thank-you; the order records no
agent and the webhooks go out. And when an agent accepts mid-cart, the kiosk switches to the agent
with the same cart, which the agent's dashboard shows. Keyboard only where a customer could use it
so."""

import json
import re
import time

import pytest
from playwright.sync_api import expect

from apps.routing.models import RoutingSettings
from apps.webhooks import services as webhook_services
from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors as assert_dashboard_clean
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.payments import demo_account_for
from tests.support.processes import wait_until

pytestmark = pytest.mark.live
DECLINED, SUCCEEDS = "4000 0000 0000 0002", "4242 4242 4242 4242"


def wait_for_webhooks(receiver, names: set[str], timeout: float = 15) -> dict:
    def delivered() -> dict | None:
        seen = {json.loads(request.body)["event"]: json.loads(request.body) for request in receiver.received}
        return seen if names <= set(seen) else None

    return wait_until(delivered, timeout, lambda: f"webhooks {names} (got {len(receiver.received)})", every=0.2)


@pytest.fixture
def cooking(world):
    """The burger must be ordered with a cooking (Medium or Well done, one of them)."""
    group = factories.ModifierGroupFactory(item=world.items["burger"], name="Cooking", required=True, min=1, max=1)
    return {
        "medium": factories.ModifierOptionFactory(group=group, name="Medium"),
        "well": factories.ModifierOptionFactory(group=group, name="Well done"),
    }


@pytest.fixture
def demo_account(world):
    demo_account_for(world.business.owner, "acct_demo_alone")


def test_with_nobody_signed_in_a_customer_orders_and_pays_alone(
    world, kiosk, cooking, demo_account, serve, open_page, receiver
):
    webhook_services.subscription_create(
        owner=world.business.owner, url=receiver.url, events=["order.created", "payment.captured"]
    )
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.click("#start")
    opened = started.value.json()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    expect(tablet.locator("#waiting-agents")).to_have_text(re.compile("No one from our team is free"))
    offer = tablet.locator("#order-alone")
    expect(offer).to_be_visible()
    expect(tablet.locator("#alone-offer")).to_contain_text("an agent will join you")
    offer.focus()
    tablet.keyboard.press("Enter")

    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("body")).to_have_attribute("data-alone", "true")
    expect(tablet.locator("#alone-title")).to_be_visible()
    expect(tablet.locator("#alone-place")).to_have_text(re.compile("You are next"))
    expect(tablet.locator("#agent-name")).to_be_hidden()

    # The burger needs a cooking: the dialog says so in words, then takes the keyboard's choice.
    tablet.get_by_role("button", name="Add Burger").click()
    dialog = tablet.locator("#item-options")
    expect(dialog).to_be_visible()
    expect(tablet.locator("#item-options-title")).to_have_text("Choose for Burger")
    tablet.click("#item-options-add")
    expect(tablet.locator("#item-options-error")).to_have_text("Cooking: choose at least 1.")
    tablet.get_by_label("Well done").focus()
    tablet.keyboard.press("Space")
    expect(tablet.get_by_label("Well done")).to_be_checked()
    tablet.click("#item-options-add")
    expect(dialog).to_be_hidden()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    expect(tablet.locator("#cart-lines li .modifiers")).to_have_text("Cooking: Well done")

    tablet.get_by_role("button", name="Add Fries").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(2)
    tablet.get_by_role("button", name="One more Fries").press("Enter")
    expect(tablet.locator("#cart-lines li").nth(1).locator(".quantity")).to_have_text("2 ×")
    expect(tablet.locator("#cart-subtotal")).to_have_text("$16.00")  # 10 + 2 x 3, priced by the server
    # The cart is drawn anew on each answer: the + keeps the focus, so the keyboard carries on.
    more = tablet.get_by_role("button", name="One more Fries")
    expect(more).to_be_focused()
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#cart-subtotal")).to_have_text("$19.00")
    expect(more).to_be_focused()
    tablet.keyboard.press("Shift+Tab")
    expect(tablet.get_by_role("button", name="One fewer Fries")).to_be_focused()
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#cart-lines li").nth(1).locator(".quantity")).to_have_text("2 ×")
    expect(tablet.locator("#cart-subtotal")).to_have_text("$16.00")
    tablet.reload()  # a reload resumes ordering alone with the same cart
    expect(tablet.locator("body")).to_have_attribute("data-alone", "true")
    expect(tablet.locator("#cart-lines li")).to_have_count(2)
    expect(tablet.locator("#cart-subtotal")).to_have_text("$16.00")
    expect(tablet.locator("button.add-item")).to_have_count(2)
    total = tablet.locator("#cart-total").inner_text()
    assert total.startswith("$") and total != "$16.00"  # tax added by the server

    # Pay with the demo card: declined, back to the cart (and the queue), then paid.
    tablet.click("#alone-pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")
    expect(tablet.locator("#payment-amount")).to_have_text(f"To pay: {total}")
    expect(tablet.locator("#alone-back")).to_be_visible()
    expect(tablet.locator("button.line-change")).to_have_count(0)  # the cart is locked while paying
    tablet.fill("#card-number", DECLINED)
    tablet.click("#pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "declined")
    expect(tablet.locator("#payment-error")).to_have_text("Card declined, try another card.")
    tablet.click("#alone-back")
    expect(tablet.locator("#payment")).to_be_hidden()
    expect(tablet.locator("#alone-pay")).to_be_visible()
    expect(tablet.locator("#alone-place")).to_have_text(re.compile("You are next"))  # back in the queue
    tablet.click("#alone-pay")
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    number = tablet.locator("#order-number").inner_text()
    expect(tablet.locator("#thanks-total")).to_have_text(f"Paid {total}")

    # The server's word (the server has its own copy of the database on the embedded default).
    remembered = tablet.evaluate("JSON.parse(localStorage.getItem('kiosk-app.device')).openSession || null")
    assert remembered is None  # closed: the device forgot the session and its cart
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{opened['session_id']}/status").json()
    assert status["status"] == "completed" and status["agent"] is None and status["accepted_at"] is None
    order = server.kiosk_call(kiosk, "GET", f"/sessions/{opened['session_id']}/order").json()
    assert order["order_number"] == number and order["status"] == "confirmed"
    delivered = wait_for_webhooks(receiver, {"order.created", "payment.captured"})
    assert delivered["order.created"]["data"]["agent_name"] == ""
    assert delivered["order.created"]["data"]["order_number"] == number
    assert_no_console_errors(tablet)


def test_an_agent_who_accepts_mid_cart_takes_the_same_cart_over(world, kiosk, cooking, serve, open_page):
    # An agent is available, but the owner offers self-service at once (threshold 0 s).
    RoutingSettings.objects.create(
        owner=world.business.owner,
        offer_size=3,
        offer_seconds=60,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=0,
    )
    server = serve()
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    tablet.get_by_role("button", name="Español").click()
    tablet.click("#start")
    expect(tablet.locator("#order-alone")).to_have_text("Pedir por tu cuenta")
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Añadir Burger").click()
    tablet.get_by_label("Medium").check()
    tablet.click("#item-options-add")
    expect(tablet.locator("#cart-lines li")).to_have_count(1)

    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    session_id = incoming.get_attribute("data-session-id")
    card(dashboard, session_id).locator("button.accept").click()

    # The kiosk: the agent now, with the same cart, no longer editable by the customer.
    expect(tablet.locator("body")).to_have_attribute("data-alone", "false")
    expect(tablet.locator("#agent-name")).to_have_text("Ada Agent")
    expect(tablet.locator("#cart-lines li .name")).to_have_text("Burger")
    expect(tablet.locator("button.line-change")).to_have_count(0)
    expect(tablet.locator("button.add-item")).to_have_count(0)
    # The dashboard: the customer's cart, ready for the agent to change.
    expect(dashboard.locator("#cart-lines li")).to_have_count(1)
    expect(dashboard.locator("#cart-lines li .name")).to_have_text("Burger")
    expect(dashboard.locator("#cart-lines li .modifiers")).to_have_text("Cooking: Medium")
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert status["status"] == "active" and status["agent"]["id"] == str(world.agent.pk)
    assert_no_console_errors(tablet)
    assert_dashboard_clean(dashboard)


def test_a_status_read_started_before_paying_again_does_not_take_the_card_step_away(
    world, kiosk, demo_account, serve, open_page
):
    """Back from the card step, the kiosk reads the status again (alone.back). On a slow machine
    the customer can tap Pay again before that read answers (the real-time status already showed
    the cart): its answer, "pending" from before the new payment, must not close the card step.
    (The same ordering follows a reload: the resumed session's read and the reconnect's.)"""
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    tablet.click("#start")
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Add Fries").click()
    expect(tablet.locator("#cart-subtotal")).to_have_text("$3.00")
    tablet.click("#alone-pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")

    held = []  # the status read that follows the cancel: answered by the server now, delivered later

    def hold_the_first(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))

    tablet.route(re.compile(r"/api/public/sessions/[^/]+/status$"), hold_the_first)
    tablet.click("#alone-back")
    expect(tablet.locator("#alone-place")).to_have_text(re.compile("You are next"))  # the real-time status
    deadline = time.monotonic() + 10
    while not held:  # Playwright runs the route's handler only while the test is in one of its calls
        assert time.monotonic() < deadline, "no status read after going back"
        tablet.wait_for_timeout(50)
    with tablet.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/payment")) as paying:
        tablet.click("#alone-pay")
    assert paying.value.status == 200
    expect(tablet.locator("#payment")).to_be_visible()

    route, pending = held[0]
    assert pending.json()["status"] == "pending"  # what the server said before the new payment
    # The held read goes on (the status, then the cart) and is applied, or read again, by the next frame.
    with tablet.expect_response(lambda r: r.request.method == "GET" and r.url.endswith("/order")):
        route.fulfill(response=pending)
    tablet.evaluate("() => new Promise(requestAnimationFrame)")
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    expect(tablet.locator("#payment")).to_be_visible()
    expect(tablet.locator("#alone-pay")).to_be_hidden()
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    assert_no_console_errors(tablet)
