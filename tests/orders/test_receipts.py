"""Receipts: the paid order's receipt page at its unguessable address, and the receipt mailed on the
kiosk's request by a worker job, in the customer's language."""

import zoneinfo

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.test import Client

from apps.menu.models import MenuItem
from apps.orders import receipts, tasks
from apps.orders.models import Order, OrderSettings
from tests import factories
from tests.support.auth import error_of


def order_url(session) -> str:
    return f"/api/public/sessions/{session.public_id}/order"


def receipt_url(session) -> str:
    return f"/api/public/sessions/{session.public_id}/receipt"


def ask_mail(client, session, body):
    return client.post(receipt_url(session), body, content_type="application/json")


@pytest.fixture
def spanish_order(confirmed_order):
    session = confirmed_order.session
    session.customer_locale = "es-ES"
    session.save(update_fields=["customer_locale"])
    business = confirmed_order.business
    business.timezone = "Europe/Madrid"
    business.name = "Casa Pepe"
    business.save(update_fields=["timezone", "name"])
    Order.objects.filter(pk=confirmed_order.pk).update(dining="take_away")
    MenuItem.objects.filter(pk=confirmed_order.lines.get().menu_item_id).update(
        translations={"es": {"name": "Hamburguesa"}}
    )
    return Order.objects.get(pk=confirmed_order.pk)


def test_the_paid_order_carries_its_receipt_page_which_needs_no_sign_in(spanish_order, kiosk_client):
    body = kiosk_client.get(order_url(spanish_order.session)).json()
    path = receipts.receipt_path(spanish_order)
    assert body["receipt_url"] == f"http://testserver{path}"
    assert body["receipt_card_lines"] == ["Pagado con: Mastercard terminada en 4444"]  # the receipt's words
    assert len(path.removeprefix("/r/")) >= 40

    page = Client().get(path)
    assert page.status_code == 200
    html = page.content.decode()
    assert '<html lang="es">' in html
    for text in (
        "Casa Pepe",
        "Recibo",
        spanish_order.number,
        "2 × Hamburguesa",  # the menu's Spanish for the line
        "Subtotal",
        "20.00 USD",
        "Impuestos",
        "1.75 USD",
        "Total",
        "21.75 USD",
        "Para llevar",
        "(Europe/Madrid)",
    ):
        assert text in html, text
    local = spanish_order.paid_at.astimezone(zoneinfo.ZoneInfo("Europe/Madrid"))
    assert local.strftime("%Y-%m-%d %H:%M") in html
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "<script" not in html and "<style" not in html
    assert page["Referrer-Policy"] == "no-referrer"


def test_unknown_tokens_and_unpaid_orders_have_no_receipt(cart_session, kiosk_client):
    assert Client().get("/r/not-a-receipt").status_code == 404
    assert Client().get("/r/" + "x" * 300).status_code == 404
    body = kiosk_client.get(order_url(cart_session)).json()
    assert body["receipt_url"] is None
    assert body["receipt_card_lines"] == []
    order = Order.objects.get()
    token = "a-token-for-an-unpaid-order-xxxxxxxxxxxxxxx"
    order.receipt_token_hash = receipts.hash_token(token)
    order.save(update_fields=["receipt_token_hash"])
    assert Client().get(f"/r/{token}").status_code == 404


def test_the_receipt_is_mailed_in_spanish_and_the_address_forgotten(
    spanish_order, kiosk_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        answer = ask_mail(kiosk_client, spanish_order.session, {"email": "cliente@example.com"})
    assert answer.status_code == 202, answer.content
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    assert sent.to == ["cliente@example.com"]
    assert sent.subject == f"Tu recibo de Casa Pepe, pedido {spanish_order.number}"
    for text in (
        "Recibo",
        "2 x Hamburguesa",
        "Subtotal: 20.00 USD",
        "Impuestos: 1.75 USD",
        "Total: 21.75 USD",
        "Para llevar",
    ):
        assert text in sent.body, text
    html, kind = sent.alternatives[0]
    assert kind == "text/html"
    assert "21.75 USD" in html and "Impuestos" in html and '<html lang="es">' in html
    assert Order.objects.get(pk=spanish_order.pk).receipt_email == ""


def test_the_address_is_kept_when_the_owner_says_so(confirmed_order, kiosk_client, django_capture_on_commit_callbacks):
    OrderSettings.objects.create(business=confirmed_order.business, keep_receipt_email=True)
    with django_capture_on_commit_callbacks(execute=True):
        assert ask_mail(kiosk_client, confirmed_order.session, {"email": "me@example.com"}).status_code == 202
    assert mail.outbox[0].subject.startswith("Your receipt from")
    assert Order.objects.get().receipt_email == "me@example.com"


def test_bad_addresses_unpaid_orders_and_other_kiosks_are_refused(
    cart_session, kiosk_client, business, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        error_of(ask_mail(kiosk_client, cart_session, {"email": "not an address"}), 422, "VALIDATION_ERROR")
        error_of(ask_mail(kiosk_client, cart_session, {}), 422, "VALIDATION_ERROR")
        error_of(ask_mail(kiosk_client, cart_session, {"email": "me@example.com"}), 409, "INVALID_STATE")
        other = factories.KioskFactory(business=business)
        stranger = Client(headers={"X-Device-Id": str(other.device_id), "X-Device-Token": other.raw_token})
        error_of(ask_mail(stranger, cart_session, {"email": "me@example.com"}), 404, "SESSION_NOT_FOUND")
    assert mail.outbox == []


def test_another_owners_kiosk_sees_nothing_of_the_paid_order(confirmed_order, django_capture_on_commit_callbacks):
    stranger_kiosk = factories.KioskFactory()
    stranger = Client(
        headers={"X-Device-Id": str(stranger_kiosk.device_id), "X-Device-Token": stranger_kiosk.raw_token}
    )
    with django_capture_on_commit_callbacks(execute=True):
        error_of(ask_mail(stranger, confirmed_order.session, {"email": "me@example.com"}), 404, "SESSION_NOT_FOUND")
        error_of(stranger.get(order_url(confirmed_order.session)), 404, "SESSION_NOT_FOUND")
    assert mail.outbox == []


def test_a_failing_mail_server_is_tried_again(confirmed_order, monkeypatch):
    real_send = EmailMultiAlternatives.send
    calls = []

    def flaky_send(message, *args, **kwargs):
        calls.append(message.to)
        if len(calls) < 3:
            raise ConnectionRefusedError("the mail server is down")
        return real_send(message, *args, **kwargs)

    monkeypatch.setattr(EmailMultiAlternatives, "send", flaky_send)
    result = tasks.send_receipt.apply(args=(confirmed_order.pk, "me@example.com"))  # eager: retries at once
    assert result.get() is True
    assert len(calls) == 3
    assert [sent.to for sent in mail.outbox] == [["me@example.com"]]


def test_one_order_is_mailed_a_few_times_at_most(
    confirmed_order, kiosk_client, settings, django_capture_on_commit_callbacks
):
    settings.RECEIPT_EMAILS_PER_ORDER = 2
    with django_capture_on_commit_callbacks(execute=True):
        for n in range(2):
            assert ask_mail(kiosk_client, confirmed_order.session, {"email": f"me{n}@example.com"}).status_code == 202
        error_of(ask_mail(kiosk_client, confirmed_order.session, {"email": "more@example.com"}), 429, "RATE_LIMITED")
    assert [sent.to for sent in mail.outbox] == [["me0@example.com"], ["me1@example.com"]]
