"""Paying on the kiosk's card reader, in the kiosk app and the agent dashboard, against the live
server with the demo processor (as `make run`): the kiosk has a simulated reader; the agent builds
the cart in the dashboard and sends it to payment while the reader is unplugged: the dashboard says
so and the kiosk, which opens no payment step, tells the customer in their language (Spanish) that
the agent will try again, still after a reload; the reader back, the agent sends again and the
kiosk shows no card fields but what to do on the reader, and the dashboard waits for the card on
the reader. The customer's cards are presented with the processor's test helper through the real
`stripe` library over HTTP (as the reader's server tests do): a declined card (insufficient funds)
is said with its cause on both screens, the same payment goes back to the reader, an approved card
thanks the customer; the order is confirmed once, with one order.created."""

import re

import pytest
import stripe
from django.conf import settings
from playwright.sync_api import expect

from apps.billing.services import readers
from apps.core.models import DomainEvent
from apps.demo_processor import terminal as demo_terminal
from apps.demo_processor.models import DemoReader
from apps.orders.models import Order
from apps.webhooks import services as webhook_services
from tests.agent_dashboard.conftest import sign_in_and_go_available
from tests.kiosk_app.conftest import agent_serves_a_burger, as_paired, assert_no_console_errors
from tests.kiosk_app.test_whole_order import wait_for_webhooks
from tests.support.payments import demo_account_for
from tests.support.processes import wait_until

pytestmark = pytest.mark.live
ACCOUNT = "acct_demo_kiosk_reader"
APPROVED, NO_FUNDS = "4242424242424242", "4000000000009995"


def reader_holds_a_payment(reader_id: str) -> bool:
    action = DemoReader.objects.get(reader_id=reader_id).action or {}
    return action.get("status") == "in_progress"


def test_a_customer_pays_on_the_card_reader_declined_then_approved(world, kiosk, serve, open_page, receiver):
    owner = world.business.owner
    demo_account_for(owner, ACCOUNT)
    reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Till")
    webhook_services.subscription_create(owner=owner, url=receiver.url, events=["order.created"])
    server = serve()
    taps = stripe.StripeClient(
        settings.PROCESSOR_SECRET_KEY, base_addresses={"api": f"{server.url}/demo-processor"}
    ).v1.test_helpers.terminal.readers

    def present(number: str):
        return taps.present_payment_method(
            reader.reader_id, params={"card_present": {"number": number}}, options={"stripe_account": ACCOUNT}
        )

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("button.language[data-locale='es-ES']")
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)

    session_id = agent_serves_a_burger(tablet, dashboard)

    # The reader is unplugged as the agent sends to payment: the agent reads it and may send again;
    # the customer, who is shown no payment step, reads it beside the order, in Spanish.
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    dashboard.click("#send-payment")
    expect(dashboard.locator("#cart-error")).to_contain_text("The card reader is offline")
    refusal = tablet.locator("#reader-refusal")
    refused_words = "El lector de tarjetas no responde ahora. Tu pedido se guarda: Ada Agent lo intentará de nuevo."
    expect(refusal).to_have_text(refused_words)
    expect(tablet.locator("#payment")).to_be_hidden()
    # A reload reads it again from the status.
    tablet.reload()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(refusal).to_have_text(refused_words)

    # The reader back, the agent sends again: the reader takes the card, the tablet draws no card fields.
    demo_terminal.reader_set_status(reader.reader_id, online=True)
    dashboard.click("#send-payment")
    payment = tablet.locator("#payment")
    expect(payment).to_be_visible()
    expect(payment).to_have_attribute("data-method", "card_present")
    expect(tablet.locator("#reader-instruction")).to_have_text("Acerca, inserta o desliza tu tarjeta en el lector")
    expect(tablet.locator("#reader-label")).to_have_text("Lector de tarjetas: Till")
    expect(tablet.locator("#payment-amount")).to_have_text(re.compile(r"^A pagar: 10,88\s*US\$$"))  # with tax
    expect(tablet.locator("#card-number")).to_have_count(0)
    expect(tablet.locator("#pay")).to_have_count(0)
    expect(tablet.locator("#leave-session")).to_be_hidden()
    expect(refusal).to_be_hidden()  # the refusal is over
    expect(dashboard.locator("#payment-state")).to_have_text("Waiting for the card on the reader")

    # A declined card: its cause in the customer's language, another card on the reader.
    declined = present(NO_FUNDS)
    assert (declined.action.status, declined.action.failure_code) == ("failed", "card_declined")
    expect(payment).to_have_attribute("data-state", "declined")
    expect(tablet.locator("#payment-error")).to_have_text(
        "Tarjeta rechazada: la tarjeta no tiene fondos suficientes. Puedes probar con otra tarjeta en el lector."
    )
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")  # still in payment
    expect(dashboard.locator("#payment-state")).to_have_text(
        "Declined: the card has insufficient funds, the customer may try another card on the reader."
    )
    # The same payment goes back to the reader (a job after the decline), and the kiosk says so.
    wait_until(lambda: reader_holds_a_payment(reader.reader_id), 15, lambda: "the payment back on the reader")
    expect(tablet.locator("#payment-reader")).to_have_attribute("data-state", "waiting")
    expect(tablet.locator("#reader-instruction")).to_have_text("Acerca, inserta o desliza tu tarjeta en el lector")

    approved = present(APPROVED)
    assert approved.action.status == "succeeded"
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(tablet.locator("#order-number")).not_to_be_empty()
    # What a card-present receipt carries, on the thank-you screen too, in the customer's language.
    expect(tablet.locator("#thanks-card li")).to_have_text(
        [
            "Pagado con: Visa terminada en 4242",
            "Lectura de la tarjeta: Sin contacto",
            re.compile("^Aplicación de la tarjeta: .*AID"),
        ]
    )

    order = Order.objects.get(session__public_id=session_id)
    assert order.status == "confirmed"
    wait_for_webhooks(receiver, {"order.created"})
    assert DomainEvent.objects.filter(owner=owner, name="order.created").count() == 1
    created = [request for request in receiver.received if b'"order.created"' in request.body]
    assert len(created) == 1
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)


def test_a_reader_offline_when_sent_gives_the_card_fields_where_the_owner_allows_it(world, kiosk, serve, open_page):
    """The reader is unplugged before the order is sent to payment: as the owner allows it, the
    kiosk shows its card fields at once and says why, in the customer's language; the customer
    pays there, once."""
    from apps.orders import services as order_services

    owner = world.business.owner
    demo_account_for(owner, ACCOUNT)
    order_services.order_settings_update(
        business=kiosk.business, ask_dining=False, keep_receipt_email=False, card_fields_fallback=True
    )
    reader = readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Till")
    demo_terminal.reader_set_status(reader.reader_id, online=False)
    server = serve()

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    tablet.click("button.language[data-locale='de-DE']")
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)
    session_id = agent_serves_a_burger(tablet, dashboard)
    dashboard.click("#send-payment")
    expect(tablet.locator("#payment")).to_have_attribute("data-method", "card")
    expect(tablet.locator("#payment-reader")).to_have_attribute("data-state", "instead")
    expect(tablet.locator("#reader-note")).to_have_text(
        "Das Kartenlesegerät kann Ihre Karte gerade nicht annehmen: "
        "Bitte bezahlen Sie stattdessen hier mit Ihrer Karte."
    )
    expect(tablet.locator("#reader-card-fields")).to_have_count(0)
    tablet.click("button.test-card:has-text('4242')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    order = Order.objects.get(session__public_id=session_id)
    assert order.status == "confirmed"
    assert DomainEvent.objects.filter(owner=owner, name="order.created").count() == 1
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
