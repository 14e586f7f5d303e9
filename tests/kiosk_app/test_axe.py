"""axe-core's WCAG 2.1 A and AA rules on the kiosk's screens, in each display mode (standard,
large text, high contrast, and accessible mode's low layout), landscape and portrait, in a real
Chromium against the live server: no violation anywhere. The colour contrast rule must have run on
each screen's texts; what axe leaves incomplete (text on the attract screen's gradient) is measured
from the computed colours (tests/support/axe.py). One page per orientation: each mode is set on
the attract screen, then one order alone goes through the waiting screen, the menu, an item with
options, the cart, the payment and the thank-you, whose Done brings the next customer's defaults.
In portrait the business's colour is a light yellow, which the kiosk must darken to keep 4.5:1."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.kiosk_app.test_accessible_display import CONTRAST_FAULTS
from tests.support.axe import findings
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live
SUCCEEDS = "4242 4242 4242 4242"
MODES = ("standard", "large text", "high contrast", "low layout")


@pytest.fixture
def ordering(world):
    demo_account_for(world.business.owner, "acct_demo_axe")
    group = factories.ModifierGroupFactory(item=world.items["burger"], name="Cooking", required=True, min=1, max=1)
    factories.ModifierOptionFactory(group=group, name="Medium")
    factories.ModifierOptionFactory(group=group, name="Well done")
    burger = world.items["burger"]
    burger.allergens = ["gluten"]
    burger.save(update_fields=["allergens"])


# What axe cannot decide and a person has: the cart's − and + show a symbol and are named in words
# ("One more Fries"); a symbol is not text whose words the name must contain (WCAG 2.5.3's
# understanding document), so "Label in Name" holds.
REVIEWED = frozenset({("label-content-name-mismatch", "button.line-change")})


class Audit:
    """Every finding of one page, kept until the end so one run lists them all."""

    def __init__(self, page):
        self.page = page
        self.faults: list[str] = []

    def __call__(self, where: str) -> None:
        faults, contrast_checked = findings(self.page, where, REVIEWED)
        self.faults += faults
        if where.startswith("high contrast"):  # beyond AA: 7:1 for every text (WCAG 1.4.6)
            self.faults += [f"{where}: under 7:1 {line}" for line in self.page.evaluate(CONTRAST_FAULTS, 7)]
        if contrast_checked == 0:
            self.faults.append(f"{where}: the colour contrast rule checked no text")


def set_mode(page, mode: str) -> None:
    """On the attract screen, as a customer does: the bar's toggles, or a key for the mode."""
    html, body = page.locator("html"), page.locator("body")
    if mode == "large text":
        page.click("#text-toggle")
        expect(html).to_have_attribute("data-text", "large")
    elif mode == "high contrast":
        page.click("#contrast-toggle")
        expect(html).to_have_attribute("data-contrast", "high")
    elif mode == "low layout":
        page.keyboard.press("Enter")
        expect(body).to_have_attribute("data-accessible", "true")


def order_through_every_screen(page, check, mode: str) -> None:
    body = page.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")
    expect(page.locator("#business-name")).to_have_text("Burger Barn")
    set_mode(page, mode)
    check(f"{mode}, attract")
    page.click("#start")
    expect(page.locator("#order-alone")).to_be_visible()
    check(f"{mode}, waiting")
    page.click("#order-alone")
    expect(body).to_have_attribute("data-alone", "true")
    expect(page.locator("button.add-item")).to_have_count(2)
    check(f"{mode}, menu")
    page.get_by_role("button", name="Add Burger").click()
    expect(page.locator("#item-options")).to_be_visible()
    check(f"{mode}, item options")
    page.get_by_label("Well done").check()
    page.click("#item-options-add")
    expect(page.locator("#item-options")).to_be_hidden()
    page.get_by_role("button", name="Add Fries").click()
    expect(page.locator("#cart-lines li")).to_have_count(2)
    check(f"{mode}, cart")
    page.click("#alone-pay")
    expect(page.locator("#payment")).to_have_attribute("data-mode", "demo")
    expect(page.locator("#card-number")).to_be_visible()
    check(f"{mode}, payment")
    # The owner asks eat in or take away (the default): wait for the question, read after the
    # card step opens, so the card is not tapped while the question pushes it down.
    expect(page.locator("#dining")).to_be_visible()
    page.click("#dining-take-away")
    page.click(f"button.test-card:has-text('{SUCCEEDS}')")
    page.click("#pay")
    expect(body).to_have_attribute("data-screen", "thanks")
    expect(page.locator("#order-number")).not_to_be_empty()
    check(f"{mode}, thank-you")
    page.click("#thanks-done")
    expect(body).to_have_attribute("data-screen", "attract")
    expect(body).to_have_attribute("data-accessible", "false")  # the next customer's defaults


@pytest.mark.parametrize("size", [(1180, 820), (800, 1280)], ids=["landscape", "portrait"])
def test_every_screen_in_every_mode_has_no_wcag_21_aa_violation(world, kiosk, ordering, serve, open_page, size):
    if size == (800, 1280):  # an owner's colour too light for white words: the kiosk darkens it
        world.business.primary_color = "#FACC15"
        world.business.save(update_fields=["primary_color"])
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk), viewport=size)
    check = Audit(tablet)
    for mode in MODES:
        order_through_every_screen(tablet, check, mode)
    assert check.faults == [], "\n".join(check.faults)
    assert_no_console_errors(tablet)
