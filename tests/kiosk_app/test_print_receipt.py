"""The kiosk's "Print receipt" in a real Chromium against the shared live server: a customer who chose
Español orders alone and pays with the demo Visa; the thank-you screen offers "Imprimir recibo"
(the kiosk has a receipt printer), the customer presses it with the keyboard, the screen says it
prints, and the fake network printer receives the receipt in Spanish with the card and the QR
code of the receipt page. Asked again, nothing more prints."""

import re

import pytest
from playwright.sync_api import expect

from apps.accounts.models import Business
from apps.printing.models import Printer, PrinterRole, PrintJob
from apps.printing.services import print_settings_update
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.fake_printer import FakePrinter
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live
SUCCEEDS = "4242 4242 4242 4242"


@pytest.fixture
def counter_printer(world, kiosk):
    """A receipt printer for the kiosk, on a fake network printer."""
    Business.objects.filter(pk=world.business.pk).update(address="Calle Mayor 1\n28013 Madrid")
    demo_account_for(world.business.owner, "acct_demo_print")
    fake = FakePrinter()
    Printer.objects.create(
        business=world.business, name="Counter", host=fake.host, port=fake.port, role=PrinterRole.RECEIPT, kiosk=kiosk
    )
    yield fake
    fake.close()


def pay_in_spanish(tablet) -> str:
    """Order fries alone in Spanish and pay; the order's number on the thank-you screen."""
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("button.language[data-locale='es-ES']")
    tablet.click("#start")
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Añadir Fries").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    tablet.click("#alone-pay")
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    return tablet.locator("#order-number").inner_text()


def test_print_receipt_on_the_thank_you_screen_reaches_the_printer_in_the_customers_language(
    counter_printer, kiosk, serve, open_page
):
    server = serve()
    tablet = open_page("/kiosk/?thank_you_seconds=30", server, before=as_paired(kiosk))
    number = pay_in_spanish(tablet)

    button = tablet.get_by_role("button", name="Imprimir recibo")
    expect(button).to_be_visible()  # within the receipt's box, shown once the server gave its address
    receipt_url = tablet.locator("#thanks-receipt").get_attribute("data-receipt-url")
    assert receipt_url and "/r/" in receipt_url
    expect(button).to_be_in_viewport(ratio=1)
    button.focus()
    with tablet.expect_response(re.compile(r"/receipt/print$")) as asked:
        tablet.keyboard.press("Enter")
    assert asked.value.request.method == "POST" and asked.value.status == 202
    expect(tablet.locator("#receipt-print-status")).to_have_text("Tu recibo se está imprimiendo.")
    expect(button).to_be_hidden()  # asked once: not offered again

    [receipt] = counter_printer.wait_for_tickets(1)
    lines = receipt.splitlines()
    assert f"Recibo · Pedido #{number}" in lines
    for text in ("Calle Mayor 1", "Pagado con: Visa terminada en 4242", f"<qr {receipt_url}>", "<cut>"):
        assert text in lines, (text, lines)
    assert PrintJob.objects.filter(kind="receipt").count() == 1
    assert_no_console_errors(tablet)


def test_when_the_owner_prints_every_receipt_it_prints_without_asking(counter_printer, world, kiosk, serve, open_page):
    print_settings_update(business=world.business, print_receipts=True)
    server = serve()
    tablet = open_page("/kiosk/?thank_you_seconds=30", server, before=as_paired(kiosk))
    number = pay_in_spanish(tablet)
    expect(tablet.locator("#receipt-print-status")).to_have_text("Tu recibo se está imprimiendo.")
    expect(tablet.get_by_role("button", name="Imprimir recibo")).to_be_hidden()
    [receipt] = counter_printer.wait_for_tickets(1)
    assert f"Recibo · Pedido #{number}" in receipt.splitlines()
    assert_no_console_errors(tablet)
