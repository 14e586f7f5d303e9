"""The kiosk app and the demo reader's own page (/demo-processor/readers/<id>/) in two Chromium pages
of one browser, against the worker's shared live server with a fresh owner: the agent builds the cart
and sends it to payment through the agent API; the kiosk says to use the reader, with the amount;
the customer presses the reader page's declined card (insufficient funds): the kiosk says why in
words and the same payment goes back to the reader; then the approved card: the kiosk thanks the
customer, the order is confirmed once and one order.created reaches a real HTTP receiver. And a
reader offline when the agent sends to payment: the dashboard and the kiosk say so, and sending
again once it is back hands it the payment; the same for a customer paying alone, in their language."""

import re

import pytest
from playwright.sync_api import expect

from apps.billing.models import Payment
from apps.billing.services import readers
from apps.core.models import DomainEvent
from apps.demo_processor import terminal as demo_terminal
from apps.demo_processor.models import DemoReader
from apps.orders.models import Order
from apps.webhooks import services as webhook_services
from tests.agent_dashboard.conftest import assert_no_console_errors as assert_dashboard_clean
from tests.agent_dashboard.conftest import sign_in_and_go_available
from tests.kiosk_app.conftest import agent_serves_a_burger, as_paired, assert_no_console_errors
from tests.kiosk_app.test_whole_order import wait_for_webhooks
from tests.support.payments import demo_account_for
from tests.support.processes import wait_until

pytestmark = pytest.mark.live
ACCOUNT = "acct_demo_reader_page"


def held_intent(reader_id: str) -> str | None:
    action = DemoReader.objects.get(reader_id=reader_id).action or {}
    return action["process_payment_intent"]["payment_intent"] if action.get("status") == "in_progress" else None


def offline_reader(world, kiosk):
    """The kiosk's simulated reader on the owner's demo account, switched off."""
    demo_account_for(world.business.owner, ACCOUNT)
    reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Counter")
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    return reader


def test_the_customer_pays_on_the_reader_page_declined_then_approved(world, kiosk, serve, open_page, receiver):
    owner = world.business.owner
    demo_account_for(owner, ACCOUNT)
    reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-s700", label="Counter")
    webhook_services.subscription_create(owner=owner, url=receiver.url, events=["order.created"])
    server = serve()
    agent = server.agent(world.agent.email)

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"][0]["id"]
    assert agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
    lines = [{"menu_item_id": str(world.items["burger"].pk), "quantity": 1}]
    assert agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10).ok
    sent = agent.post(f"{server.url}/api/sessions/{session_id}/payment", timeout=20)
    assert sent.status_code == 200, sent.text

    # The kiosk: no card fields, what to do on the reader and the amount.
    payment_box = tablet.locator("#payment")
    expect(payment_box).to_have_attribute("data-method", "card_present")
    expect(tablet.locator("#reader-instruction")).to_have_text("Tap, insert or swipe your card on the reader")
    expect(tablet.locator("#payment-amount")).to_have_text(re.compile(r"^To pay: \$10\.88$"))
    expect(tablet.locator("#card-number")).to_have_count(0)
    intent_id = Payment.objects.get(order__session__public_id=session_id).intent_id

    # The reader's page, beside the kiosk: it holds the payment and asks for a card.
    device = open_page(f"/demo-processor/readers/{reader.reader_id}/", server)
    holding = device.locator("[data-screen='holding']")
    expect(holding).to_be_visible()
    expect(holding.locator("[data-amount]")).to_have_text("$10.88")
    declined_card = device.locator("button[data-card='insufficient_funds']")
    expect(declined_card).to_be_enabled()
    declined_card.click()

    # Declined: the kiosk says why, in words, and stays in payment; the same intent goes back to the reader.
    expect(payment_box).to_have_attribute("data-state", "declined")
    expect(tablet.locator("#payment-error")).to_have_text(
        "Card declined: the card has insufficient funds. You may try another card on the reader."
    )
    expect(device.locator("#reader-outcome [data-outcome='declined']")).to_be_visible()
    wait_until(lambda: held_intent(reader.reader_id) == intent_id, 15, lambda: "the same payment back on the reader")
    expect(tablet.locator("#payment-reader")).to_have_attribute("data-state", "waiting")
    expect(tablet.locator("#reader-instruction")).to_have_text("Tap, insert or swipe your card on the reader")
    assert Payment.objects.filter(order__session__public_id=session_id).count() == 1

    approved_card = device.locator("button[data-card='approved']")
    expect(holding).to_be_visible()  # the page has read the payment back (its buttons wait for it)
    expect(approved_card).to_be_enabled()
    approved_card.click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(tablet.locator("#order-number")).not_to_be_empty()
    expect(device.locator("#reader-outcome [data-outcome='approved']")).to_be_visible()

    order = Order.objects.get(session__public_id=session_id)
    assert order.status == "confirmed"
    wait_for_webhooks(receiver, {"order.created"})
    assert DomainEvent.objects.filter(owner=owner, name="order.created").count() == 1
    created = [request for request in receiver.received if b'"order.created"' in request.body]
    assert len(created) == 1
    assert_no_console_errors(tablet)
    assert_no_console_errors(device)


def test_a_reader_offline_when_sent_is_said_to_the_agent_and_sending_again_hands_it_the_payment(
    world, kiosk, serve, open_page
):
    reader = offline_reader(world, kiosk)
    server = serve()

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)
    session_id = agent_serves_a_burger(tablet, dashboard)

    dashboard.click("#send-payment")
    expect(dashboard.locator("#cart-error")).to_have_text(
        "The card reader is offline: ask the customer to wait while it is switched on and connected, "
        "then send to payment again. The order is kept."
    )
    expect(dashboard.locator("#send-payment")).to_be_enabled()  # the retry
    expect(tablet.locator("#payment")).to_be_hidden()  # nothing started: the cart is still the customer's
    expect(tablet.locator("#reader-refusal")).to_have_text(
        "The card reader is not answering right now. Your order is kept: Ada Agent will try again."
    )
    assert not Payment.objects.filter(order__session__public_id=session_id).exists()

    demo_terminal.reader_set_status(reader.reader_id, online=True)
    dashboard.click("#send-payment")
    expect(tablet.locator("#payment")).to_have_attribute("data-method", "card_present")
    expect(tablet.locator("#reader-instruction")).to_have_text("Tap, insert or swipe your card on the reader")
    expect(dashboard.locator("#payment-state")).to_have_text("Waiting for the card on the reader")
    expect(dashboard.locator("#cart-error")).to_be_hidden()  # the refusal is over
    expect(tablet.locator("#reader-refusal")).to_be_hidden()
    intent_id = Payment.objects.get(order__session__public_id=session_id).intent_id
    assert held_intent(reader.reader_id) == intent_id
    assert_no_console_errors(tablet)
    assert_dashboard_clean(dashboard)


def test_a_customer_alone_reads_in_their_language_that_the_reader_is_offline_and_pays_again(
    world, kiosk, serve, open_page
):
    reader = offline_reader(world, kiosk)
    server = serve()

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("button.language[data-locale='es-ES']")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    tablet.click("#order-alone")
    expect(tablet.locator("body")).to_have_attribute("data-alone", "true")
    tablet.locator("button.add-item").first.click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)

    pay = tablet.locator("#alone-pay")
    pay.click()
    expect(tablet.locator("#alone-error")).to_have_text(
        "El lector de tarjetas no está conectado ahora. Tu pedido se guarda: inténtalo de nuevo en un momento."
    )
    expect(tablet.locator("#payment")).to_be_hidden()
    expect(pay).to_be_enabled()  # the retry
    demo_terminal.reader_set_status(reader.reader_id, online=True)
    pay.click()
    expect(tablet.locator("#payment")).to_have_attribute("data-method", "card_present")
    expect(tablet.locator("#reader-instruction")).to_have_text("Acerca, inserta o desliza tu tarjeta en el lector")
    expect(tablet.locator("#alone-error")).to_be_hidden()
    payment = Payment.objects.get(order__session__kiosk=kiosk)
    assert held_intent(reader.reader_id) == payment.intent_id
    assert_no_console_errors(tablet)
