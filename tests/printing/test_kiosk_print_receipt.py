"""The kiosk's "Print receipt" (GET and POST /api/public/sessions/{id}/receipt/print): the
thank-you screen learns whether its kiosk has a receipt printer, and the paid order's receipt
prints there once however often it is asked; an unpaid order, a kiosk without a receipt printer
and another kiosk's session are refused in the envelope."""

from django.test import Client

from apps.printing import services
from apps.printing.models import PrinterRole, PrintJob
from tests import factories
from tests.conftest import kiosk_client_for
from tests.printing.conftest import printer_at
from tests.support.auth import error_of


def url(session) -> str:
    return f"/api/public/sessions/{session.public_id}/receipt/print"


def test_print_receipt_prints_the_paid_order_once_in_the_customers_language(
    business, kiosk, kiosk_client, ordering, pay, fake_printers, django_capture_on_commit_callbacks
):
    counter = fake_printers()
    printer_at(counter, business, name="Counter", role=PrinterRole.RECEIPT, kiosk=kiosk)
    assert kiosk_client.get(url(ordering)).json() == {"printer": True, "always": False, "status": None}
    ordering.customer_locale = "fr-FR"
    ordering.save(update_fields=["customer_locale"])
    order = pay(ordering)

    with django_capture_on_commit_callbacks(execute=True):
        answer = kiosk_client.post(url(ordering))
        again = kiosk_client.post(url(ordering))
    assert answer.status_code == 202 and again.status_code == 202, answer.content
    assert answer.json()["printer"] is True and answer.json()["status"] in ("waiting", "printing", "printed")
    [receipt] = counter.wait_for_tickets(1)
    assert f"Reçu · Commande #{order.number}" in receipt.splitlines()
    assert "http://testserver/r/" in receipt  # the QR code holds the receipt page's address
    assert PrintJob.objects.filter(order=order, kind="receipt").count() == 1
    assert kiosk_client.get(url(ordering)).json() == {"printer": True, "always": False, "status": "printed"}


def test_unpaid_orders_kiosks_without_a_printer_and_other_kiosks_are_refused(
    business, kiosk, kiosk_client, ordering, pay, fake_printers
):
    printer_at(fake_printers(), business, name="Kitchen", role=PrinterRole.KITCHEN)
    assert kiosk_client.get(url(ordering)).json() == {"printer": False, "always": False, "status": None}
    error_of(kiosk_client.post(url(ordering)), 409, "INVALID_STATE")  # not paid
    pay(ordering)
    error_of(kiosk_client.post(url(ordering)), 409, "INVALID_STATE")  # no receipt printer
    other = kiosk_client_for(factories.KioskFactory(business=business))
    error_of(other.post(url(ordering)), 404, "SESSION_NOT_FOUND")
    error_of(other.get(url(ordering)), 404, "SESSION_NOT_FOUND")
    error_of(Client().post(url(ordering)), 401, "DEVICE_TOKEN_INVALID")
    assert not PrintJob.objects.filter(kind="receipt").exists()


def test_a_receipt_printer_of_another_kiosk_is_not_this_kiosks(business, kiosk_client, ordering, fake_printers):
    printer_at(
        fake_printers(),
        business,
        name="Counter",
        role=PrinterRole.RECEIPT,
        kiosk=factories.KioskFactory(business=business),
    )
    assert kiosk_client.get(url(ordering)).json() == {"printer": False, "always": False, "status": None}


def test_the_kiosk_is_told_when_the_owner_prints_every_receipt(business, kiosk, kiosk_client, ordering, fake_printers):
    services.print_settings_update(business=business, print_receipts=True)
    assert kiosk_client.get(url(ordering)).json()["always"] is False  # no receipt printer: nothing to print on
    printer_at(fake_printers(), business, name="Counter", role=PrinterRole.BOTH, kiosk=kiosk)
    assert kiosk_client.get(url(ordering)).json() == {"printer": True, "always": True, "status": None}
    services.print_settings_update(business=business, print_receipts=False)
    assert kiosk_client.get(url(ordering)).json()["always"] is False
