"""The whole order: the kiosk app and the agent dashboard in two browser contexts against a live
server with the demo processor (no processor key, as `make run`): the customer starts, the agent
accepts in the dashboard, the cart appears live on the kiosk as the agent edits it, send to payment,
the demo card is declined ("card declined, try another card", still in payment), the second card
succeeds, thank-you with the order number, then attract; the owner panel shows the order paid and
`order.created` and `payment.captured` reach a webhook receiver. Once with the app served by the
project at /kiosk/, once from a second origin (a plain static server on another port, its config.js
pointing at the API server, in KIOSK_APP_ORIGINS): CORS, on every kiosk call of the journey (the
owner's panel and the webhooks, which no kiosk call reaches, are checked once, in the first)."""

import json
import os
import re

import pytest
from playwright.sync_api import expect

from apps.webhooks import services as webhook_services
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import SCREENSHOTS, as_paired, assert_no_console_errors
from tests.panel.conftest import sign_in as panel_sign_in
from tests.support.payments import demo_account_for
from tests.support.processes import free_port, wait_until

pytestmark = pytest.mark.live
DECLINED, SUCCEEDS = "4000 0000 0000 0002", "4242 4242 4242 4242"
# The README pictures are refreshed on demand, as the panel's and the dashboard's are.
REFRESH_SCREENSHOTS = os.environ.get("PANEL_SCREENSHOTS") == "1"


def screenshot(page, name: str, origin: str) -> None:
    if REFRESH_SCREENSHOTS and origin == "same":
        page.screenshot(path=str(SCREENSHOTS / name))


def wait_for_webhooks(receiver, names: set[str], timeout: float = 15) -> dict:
    def delivered() -> dict | None:
        seen = {json.loads(request.body)["event"]: json.loads(request.body) for request in receiver.received}
        return seen if names <= set(seen) else None

    def state() -> str:
        return f"webhooks {names} (got {[r.body[:80] for r in receiver.received]})"

    return wait_until(delivered, timeout, state, every=0.2)


@pytest.mark.parametrize("origin", ["same", "second"])
def test_a_customer_orders_and_pays_with_an_agent_end_to_end(
    origin, world, kiosk, serve, open_page, second_origin, receiver
):
    demo_account_for(world.business.owner, "acct_demo_kiosk")
    if origin == "same":
        webhook_services.subscription_create(
            owner=world.business.owner, url=receiver.url, events=["order.created", "payment.captured"]
        )
        server = serve()
        kiosk_url = "/kiosk/?thank_you_seconds=60"
    else:
        port = free_port()
        server = serve(KIOSK_APP_ORIGINS=f"http://127.0.0.1:{port}")
        kiosk_url = second_origin(server.url, port) + "?thank_you_seconds=60"

    # The kiosk screen: attract, in the business's look.
    tablet = open_page(kiosk_url, server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    expect(tablet.locator("body")).to_have_attribute("data-realtime", "live")
    if origin == "second":
        assert tablet.evaluate("window.location.origin") != server.url
    screenshot(tablet, "kiosk-attract.png", origin)

    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)

    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    session_id = incoming.get_attribute("data-session-id")
    card(dashboard, session_id).locator("button.accept").click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#agent-name")).to_have_text("Ada Agent")

    # The cart appears live on the kiosk as the agent edits it.
    dashboard.click("button.menu-item:has-text('Burger')")
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    expect(tablet.locator("#cart-lines li .name")).to_have_text("Burger")
    dashboard.click("button.menu-item:has-text('Fries')")
    expect(tablet.locator("#cart-lines li")).to_have_count(2)
    expect(dashboard.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    total = dashboard.locator("#cart-total").inner_text()
    expect(tablet.locator("#cart-total")).to_have_text(total)
    expect(tablet.locator("#cart-subtotal")).to_have_text("$13.00")
    screenshot(tablet, "kiosk-cart.png", origin)

    # Send to payment; the demo card form says so.
    dashboard.click("#send-payment")
    expect(tablet.locator("#payment")).to_be_visible()
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")
    expect(tablet.locator("#payment-demo-note")).to_be_visible()
    expect(tablet.locator("#payment-demo-note")).to_have_text("Demo payments: no money moves.")
    expect(tablet.locator("#payment-amount")).to_have_text(f"To pay: {total}")
    expect(tablet.locator("#leave-session")).to_be_hidden()  # only the agent may cancel a payment

    tablet.fill("#card-number", DECLINED)
    tablet.click("#pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "declined")
    expect(tablet.locator("#payment-error")).to_have_text("Card declined, try another card.")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")  # still in payment
    expect(dashboard.locator("#payment")).to_have_attribute("data-state", "declined")

    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")  # a demo card is one tap away
    expect(tablet.locator("#card-number")).to_have_value(SUCCEEDS)
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    number = tablet.locator("#order-number").inner_text()
    assert re.fullmatch(r"\S+", number)
    expect(tablet.locator("#thanks-total")).to_have_text(f"Paid {total}")
    expect(tablet.locator("#thanks-demo-note")).to_be_visible()
    expect(tablet.locator("#thanks-demo-note")).to_have_text("Demo payments: no money moves.")
    if REFRESH_SCREENSHOTS:  # the picture shows the receipt's QR code once it has loaded
        tablet.wait_for_function("() => document.querySelector('#receipt-qr').naturalWidth > 0")
    screenshot(tablet, "kiosk-thank-you.png", origin)
    expect(dashboard.locator("#session-result")).to_contain_text("Paid: order")
    # Done before the thank-you screen's warned return (its banner lies over the button) could
    # start: 40 s in here (10 s by default), and the owner's part below takes its own time.
    tablet.click("#thanks-done")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")

    if origin == "same":  # the owner's side is the same whichever origin the kiosk app came from
        # The owner sees it paid; the webhooks went out.
        panel = open_page("/panel/login", server)
        panel_sign_in(panel, world.owner_user.email)
        panel.goto("/panel/orders")
        row = panel.locator("#order-table tr", has_text=f"#{number}")
        expect(row).to_contain_text(re.compile(r"Paid|Confirmed"))
        expect(row).to_contain_text(re.sub(r"[^\d.]", "", total))  # the panel writes 14.14 USD
        delivered = wait_for_webhooks(receiver, {"order.created", "payment.captured"})
        assert delivered["order.created"]["data"]["order_number"] == number

    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
