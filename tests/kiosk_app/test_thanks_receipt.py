"""The thank-you screen's receipt in a real Chromium against a live server with the demo processor:
a customer orders alone and pays with the demo Visa; the thank-you screen shows the number, the
lines with their options and quantities, the total, and a QR code of the receipt page (its image is
the server's drawing of exactly the kiosk's `receipt_url`); the customer reaches "Email me the
receipt" with the keyboard, a slip is said in words, typing holds the return to the attract screen,
and the sent receipt lands in the mail folder with the card ("Visa ending 4242") and the business's
address. Sending lets the screen go back to the attract screen."""

import re
from pathlib import Path

import pytest
import requests
from playwright.sync_api import expect

from apps.accounts.models import Business
from apps.orders.receipt_pages import qr_svg
from tests import factories
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors, with_clock
from tests.support.payments import demo_account_for
from tests.support.processes import wait_until

pytestmark = pytest.mark.live
SUCCEEDS = "4242 4242 4242 4242"
THANK_YOU_SECONDS = 4
EXTRAS = ("Cola", "Salad", "Ice cream")


@pytest.fixture
def shop(world):
    group = factories.ModifierGroupFactory(item=world.items["burger"], name="Cooking", required=True, min=1, max=1)
    factories.ModifierOptionFactory(group=group, name="Medium")
    factories.ModifierOptionFactory(group=group, name="Well done")
    Business.objects.filter(pk=world.business.pk).update(address="12 Harbour Road\nPortsmouth PO1 2AB")
    demo_account_for(world.business.owner, "acct_demo_thanks")
    category = world.items["burger"].category
    for name in EXTRAS:  # a longer order: the thank-you screen must still fit the tablet
        factories.MenuItemFactory(category=category, name=name, price_cents=250)
    return world


def tab_to(page, selector: str, presses: int = 15) -> None:
    """Reach an element with the Tab key alone (as a keyboard user would)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement === document.querySelector({selector!r})"):
            return
    raise AssertionError(f"{selector} is not reachable with Tab")


def test_a_paid_order_thanks_with_its_lines_a_qr_code_of_the_receipt_and_mails_it(
    shop, kiosk, serve, open_page, tmp_path
):
    mail_folder: Path = tmp_path / "mail"
    server = serve(EMAIL_FILE_PATH=str(mail_folder))
    tablet = open_page(f"/kiosk/?thank_you_seconds={THANK_YOU_SECONDS}", server, before=with_clock(as_paired(kiosk)))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.click("#start")
    session_id = started.value.json()["session_id"]
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Add Burger").click()
    tablet.get_by_label("Well done").check()
    tablet.click("#item-options-add")
    tablet.get_by_role("button", name="Add Fries").click()
    tablet.get_by_role("button", name="One more Fries").click()
    expect(tablet.locator("#cart-lines li").nth(1).locator(".quantity")).to_have_text("2 ×")
    for name in EXTRAS:
        tablet.get_by_role("button", name=f"Add {name}").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(2 + len(EXTRAS))
    subtotal, tax, total = (tablet.locator(f"#cart-{name}").inner_text() for name in ("subtotal", "tax", "total"))

    tablet.click("#alone-pay")
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    number = tablet.locator("#order-number").inner_text()
    assert number
    expect(tablet.locator("#thanks-total")).to_have_text(f"Paid {total}")
    lines = tablet.locator("#thanks-lines li")
    expect(lines).to_have_count(2 + len(EXTRAS))
    expect(lines.nth(0).locator(".name")).to_have_text("Burger")
    expect(lines.nth(0).locator(".modifiers")).to_have_text("Cooking: Well done")
    expect(lines.nth(1).locator(".quantity")).to_have_text("2 ×")
    expect(lines.nth(1).locator(".price")).to_have_text("$6.00")
    # The tax stands between the lines and the total, as on the cart.
    expect(tablet.locator("#thanks-order-subtotal")).to_have_text(subtotal)
    expect(tablet.locator("#thanks-order-tax")).to_have_text(tax)
    expect(tablet.locator("#thanks-order-total")).to_have_text(total)
    expect(tablet.locator("#thanks-card li")).to_have_text(["Paid with: Visa ending 4242"])  # as the receipt says

    # The QR code holds the address the kiosk's order resource gives: the image is the server's
    # drawing of exactly that address, and it loaded.
    order = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/order").json()
    receipt_url = order["receipt_url"]
    assert receipt_url and receipt_url.startswith(f"{server.url}/r/")
    receipt = tablet.locator("#thanks-receipt")
    expect(receipt).to_be_visible()
    # All of it within reach on the tablet (1180 x 820) without scrolling the screen: the title,
    # the receipt's heading and form, and Done; a long order scrolls inside its own list.
    for selector in ("#thanks-title", "#thanks-receipt h2", "#receipt-send", "#thanks-done"):
        expect(tablet.locator(selector)).to_be_in_viewport(ratio=1)
    expect(receipt).to_have_attribute("data-receipt-url", receipt_url)
    qr = tablet.locator("#receipt-qr")
    expect(qr).to_have_attribute("src", f"{receipt_url}/qr.svg")
    expect(qr).to_have_attribute("alt", "QR code of your receipt")
    wait_until(lambda: qr.evaluate("image => image.complete && image.naturalWidth > 0"), 5, lambda: "the QR image")
    drawn = requests.get(f"{receipt_url}/qr.svg", timeout=10)
    assert drawn.status_code == 200 and drawn.headers["Content-Type"] == "image/svg+xml"
    assert drawn.content == qr_svg(receipt_url)

    # The form, by keyboard: a slip is said in words and nothing is sent; typing holds the screen.
    field = tablet.locator("#receipt-email")
    expect(field).to_have_attribute("type", "email")
    expect(field).to_have_attribute("inputmode", "email")
    expect(tablet.get_by_label("Email me the receipt")).to_have_count(1)
    tab_to(tablet, "#receipt-email")
    expect(tablet.locator("body")).to_have_attribute("data-return-timer", "paused")
    tablet.keyboard.type("ana.example.com")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#receipt-error")).to_have_text(
        "That email address does not look right: check it, e.g. name@example.com."
    )
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill("")
    tablet.keyboard.type("ana@example.com")
    tablet.clock.run_for((THANK_YOU_SECONDS + 1) * 1000)  # longer than the thank-you lasts: it waits for the customer
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    with tablet.expect_response(re.compile(r"/receipt$")) as mailed:
        tablet.keyboard.press("Enter")
    assert mailed.value.status == 202
    expect(tablet.locator("#receipt-sent")).to_have_text("Receipt sent to ana@example.com.")
    expect(tablet.locator("#receipt-error")).to_be_hidden()
    expect(tablet.locator("body")).to_have_attribute("data-return-timer", "running")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    tablet.clock.run_for(THANK_YOU_SECONDS * 1000)
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")

    # The mail (the file backend's folder) and the receipt page say the card and the address.
    def sent_mail() -> str | None:
        files = list(mail_folder.glob("*.log")) if mail_folder.exists() else []
        return files[0].read_text(encoding="utf-8") if files else None

    text = wait_until(sent_mail, 10, lambda: "the receipt mail")
    for expected in (number, "To: ana@example.com", "Visa ending 4242", "12 Harbour Road", "Portsmouth PO1 2AB"):
        assert expected in text, expected
    assert f"Total: {total.removeprefix('$')} USD" in text
    page = requests.get(receipt_url, timeout=10).text
    assert "Paid with: Visa ending 4242" in page and "12 Harbour Road<br>Portsmouth PO1 2AB" in page
    assert_no_console_errors(tablet)
