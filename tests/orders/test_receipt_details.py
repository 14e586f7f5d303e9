"""Receipts, what they tell beyond the lines: the card that paid ("Visa ending 4242", from the
processor's latest charge; the demo processor gives it too), the business's address (set on the
panel's Settings page), and the updated receipt a refund mails to an address the owner's setting
kept, in the customer's language."""

import json

import pytest
from django.core import mail
from django.test import Client

from apps.accounts.actors import user_actor
from apps.billing import processor as processor_module
from apps.billing.models import Payment
from apps.billing.services import refunds
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoPaymentIntent
from apps.orders import receipts
from apps.orders.models import Order, OrderSettings
from tests import factories

RECEIPT_OF = "/api/public/sessions/{}/receipt"


def receipt_page(order: Order) -> str:
    page = Client().get(receipts.receipt_path(order))
    assert page.status_code == 200
    return page.content.decode()


def mail_receipt(kiosk_client, order, capture, email="ana@example.com"):
    with capture(execute=True):
        answer = kiosk_client.post(RECEIPT_OF.format(order.session.public_id), {"email": email}, "application/json")
    assert answer.status_code == 202, answer.content


def spanish(order: Order) -> Order:
    order.session.customer_locale = "es-ES"
    order.session.save(update_fields=["customer_locale"])
    return Order.objects.get(pk=order.pk)


@pytest.fixture
def manager(owner):
    return factories.PanelUserFactory(owner=owner, panel_role="manager")


# --- how it was paid -------------------------------------------------------------------------


def test_the_card_the_processor_names_is_kept_and_printed(
    confirmed_order, kiosk_client, django_capture_on_commit_callbacks
):
    payment = Payment.objects.get()
    assert (payment.card_brand, payment.card_last4) == ("mastercard", "4444")  # the stand-in's charge
    assert "Paid with: Mastercard ending 4444" in receipt_page(confirmed_order)
    order = spanish(confirmed_order)
    mail_receipt(kiosk_client, order, django_capture_on_commit_callbacks)
    assert "Pagado con: Mastercard terminada en 4444" in mail.outbox[0].body
    assert "Mastercard terminada en 4444" in mail.outbox[0].alternatives[0][0]


def test_nothing_is_said_of_the_card_when_the_processor_did_not_say(confirmed_order):
    Payment.objects.update(card_brand="", card_last4="")
    page = receipt_page(confirmed_order)
    assert "Paid with" not in page and "ending" not in page


@pytest.mark.parametrize(
    ("charge", "card"),
    [
        ({"payment_method_details": {"card": {"brand": "visa", "last4": "4242"}}}, {"brand": "visa", "last4": "4242"}),
        ({"payment_method_details": {"card": {"brand": "Amex", "last4": "0005"}}}, {"brand": "amex", "last4": "0005"}),
        ("ch_not_expanded", None),
        (None, None),
        ({"payment_method_details": {"type": "sepa_debit"}}, None),
        ({"payment_method_details": {"card": {"brand": "visa", "last4": "42"}}}, None),
        ({"payment_method_details": {"card": {"brand": "visa", "last4": "４２４２"}}}, None),
        ({"payment_method_details": {"card": {"brand": "x" * 21, "last4": "4242"}}}, None),
        ({"payment_method_details": {"card": {"brand": None, "last4": "4242"}}}, None),
    ],
)
def test_only_a_card_that_fits_is_taken_from_the_charge(charge, card):
    assert processor_module.card_of({"latest_charge": charge}) == card


@pytest.fixture
def demo_billing(owner):
    demo_processor.account_open("acct_demo_card")
    return factories.OwnerBillingFactory(owner=owner, account_id="acct_demo_card", charges_enabled=True)


def test_the_demo_processor_gives_the_card_that_paid(
    agent_client, cart_session, demo_billing, django_capture_on_commit_callbacks
):
    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    intent = DemoPaymentIntent.objects.get()
    with django_capture_on_commit_callbacks(execute=True):
        paid = Client().post(
            f"/demo-processor/v1/payment_intents/{intent.intent_id}/confirm",
            json.dumps({"client_secret": intent.client_secret, "card_number": "4242 4242 4242 4242"}),
            content_type="application/json",
        )
    assert paid.status_code == 200, paid.content
    assert isinstance(paid.json()["latest_charge"], str)  # an id, as the processor says it unexpanded
    payment = Payment.objects.get()
    assert (payment.status, payment.card_brand, payment.card_last4) == ("succeeded", "visa", "4242")
    expanded = processor_module.intent_retrieve(intent_id=intent.intent_id, account_id="acct_demo_card")
    assert expanded["card"] == {"brand": "visa", "last4": "4242"}
    order = Order.objects.get()
    assert "Paid with: Visa ending 4242" in receipt_page(order)


# --- the business's address ------------------------------------------------------------------


def settings_form(business, **fields):
    return {
        "business_id": business.pk,
        "name": business.name,
        "currency": business.currency,
        "tax_rate": "8.75",
        "primary_color": "#112233",
        "attract_message": "Hi",
        **fields,
    }


def test_the_address_set_on_the_settings_page_is_printed_on_the_receipt(
    owner_client, confirmed_order, kiosk_client, django_capture_on_commit_callbacks
):
    business = confirmed_order.business
    assert 'name="address"' in owner_client.get("/panel/settings").content.decode()
    typed = "  12 Harbour Road \r\n\r\nPortsmouth PO1 2AB  "
    assert owner_client.post("/panel/settings", settings_form(business, address=typed)).status_code == 302
    business.refresh_from_db()
    assert business.address == "12 Harbour Road\nPortsmouth PO1 2AB"
    assert '<address class="receipt-address">12 Harbour Road<br>Portsmouth PO1 2AB</address>' in receipt_page(
        confirmed_order
    )
    mail_receipt(kiosk_client, confirmed_order, django_capture_on_commit_callbacks)
    assert "12 Harbour Road\nPortsmouth PO1 2AB\n" in mail.outbox[0].body


@pytest.mark.parametrize("address", ["x" * 301, "\n".join(["line"] * 7)])
def test_an_address_too_long_is_refused_in_words(owner_client, business, address):
    response = owner_client.post("/panel/settings", settings_form(business, address=address))
    assert response.status_code == 200
    assert response.context["form"].errors or response.context["form"].non_field_errors()
    business.refresh_from_db()
    assert business.address == ""


def test_no_address_prints_nothing(confirmed_order):
    assert "receipt-address" not in receipt_page(confirmed_order)


# --- refunds mail the updated receipt ----------------------------------------------------------


def test_a_refund_mails_the_updated_receipt_to_the_kept_address_in_spanish(
    confirmed_order, kiosk_client, manager, settings, django_capture_on_commit_callbacks
):
    order = spanish(confirmed_order)
    OrderSettings.objects.create(business=order.business, keep_receipt_email=True)  # the owner keeps addresses
    mail_receipt(kiosk_client, order, django_capture_on_commit_callbacks, email="cliente@example.com")
    assert Order.objects.get(pk=order.pk).receipt_email == "cliente@example.com"

    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_order(order_id=order.pk, actor=user_actor(manager), amount_cents=500)
    partial = mail.outbox[1]
    assert partial.to == ["cliente@example.com"]
    assert partial.subject == f"Tu recibo actualizado de {order.business.name}, pedido {order.number} (reembolsado)"
    assert "Reembolsado 5.00 USD" in partial.body and "Total: 21.75 USD" in partial.body

    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_order(order_id=order.pk, actor=user_actor(manager))
    full = mail.outbox[2]
    assert Order.objects.get(pk=order.pk).status == "refunded"
    assert "Reembolsado 21.75 USD" in full.body
    assert "Reembolsado 21.75 USD" in full.alternatives[0][0]
    assert "Reembolsado 21.75 USD" in receipt_page(order)
    assert len(mail.outbox) == 3


def test_a_refund_mails_nothing_when_no_address_was_kept(
    confirmed_order, kiosk_client, manager, django_capture_on_commit_callbacks
):
    mail_receipt(kiosk_client, confirmed_order, django_capture_on_commit_callbacks)  # not kept by default
    assert Order.objects.get().receipt_email == ""
    with django_capture_on_commit_callbacks(execute=True):
        refunds.refund_order(order_id=confirmed_order.pk, actor=user_actor(manager))
    assert len(mail.outbox) == 1
    assert "Refunded 21.75 USD" in receipt_page(confirmed_order)
