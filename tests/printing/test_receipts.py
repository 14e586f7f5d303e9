"""Receipts on the kiosk's receipt printer: what the receipt page shows, in the customer's
language, with a QR code to the page; once per order however often it is asked."""

from django.db import transaction

from apps.orders import receipts
from apps.printing import services
from apps.printing.models import PrinterRole, PrintJob
from tests.printing.conftest import printer_at


def test_the_receipt_prints_in_the_customers_language_with_the_card_and_a_qr_code(
    business, kiosk, ordering, pay, fake_printers, django_capture_on_commit_callbacks
):
    business.address = "Calle Mayor 1\n28013 Madrid"
    business.name = "Casa Pepe"
    business.save(update_fields=["address", "name"])
    counter = fake_printers()
    printer_at(counter, business, name="Counter", role=PrinterRole.RECEIPT, kiosk=kiosk, paper_width=58)
    printer_at(fake_printers(), business, name="Other kiosk", role=PrinterRole.RECEIPT)  # no kiosk: not this one
    ordering.customer_locale = "es-ES"
    ordering.save(update_fields=["customer_locale"])
    order = pay(ordering)
    assert counter.tickets == []  # a receipt is printed on request (a receipt printer prints no kitchen ticket)
    url = f"https://kiosk.example{receipts.receipt_path(order)}"

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        job = services.print_receipt(order, receipt_url=url)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        assert services.print_receipt(order, receipt_url=url) == job  # asked twice, printed once

    [receipt] = counter.wait_for_tickets(1)
    lines = receipt.splitlines()
    assert lines[:3] == ["Casa Pepe", "Calle Mayor 1", "28013 Madrid"]
    assert f"Recibo · Pedido #{order.number}" in lines
    for text in (
        "Para llevar",
        "1 x Burger  10.00 USD",
        "  Doneness: Medium",
        "  no onions",
        "2 x Cola  6.00 USD",
        "Subtotal: 16.00 USD",
        "Impuestos: 1.40 USD",
        "Total: 17.40 USD",
        "Pagado con: Mastercard terminada en 4444",
        f"<qr {url}>",
        "¡Gracias!",
        "<cut>",
    ):
        assert text in lines, text
    assert PrintJob.objects.filter(kind="receipt").count() == 1


def test_no_receipt_without_a_receipt_printer_for_the_kiosk(business, ordering, pay, fake_printers):
    printer_at(fake_printers(), business, name="Kitchen", role=PrinterRole.KITCHEN)
    order = pay(ordering)
    assert services.print_receipt(order, receipt_url="https://kiosk.example/r/x") is None


def test_a_card_read_on_the_reader_prints_how_it_was_read_and_the_chips_application(
    business, kiosk, ordering, pay, fake_printers, django_capture_on_commit_callbacks
):
    """A card-present receipt carries how the card was read and, for a chip, its application, as
    the receipt page does (the processor's fields, recorded on the succeeded payment)."""
    counter = fake_printers()
    printer_at(counter, business, name="Counter", role=PrinterRole.RECEIPT, kiosk=kiosk)
    order = pay(ordering)
    order.payments.filter(status="succeeded").update(
        card_read_method="contact_emv", card_application_name="Visa Credit", card_application_id="A0000000031010"
    )
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        services.print_receipt(order, receipt_url="https://kiosk.example/r/x")
    lines = counter.wait_for_tickets(1)[0].splitlines()
    assert "Card read: Chip" in lines
    assert "Card application: Visa Credit (AID A0000000031010)" in lines
