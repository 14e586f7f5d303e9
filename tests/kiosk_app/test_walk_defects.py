"""What the walk of `make run` found (docs/decisions/kiosk-app.md, 28 Nov 2026), each in a real
Chromium against the live server: a customer paying alone is never told someone is here to help;
in accessible mode with large text, Pay moves the focus to the payment step's heading, in sight,
and the arrows carry on into it; in the low layout Pay is whole and operable above the bar
without scrolling; and in standard mode the "Back to the start" warning covers no control of the
thank-you screen."""

import re

import pytest
from playwright.sync_api import expect

from apps.billing.services import readers
from tests import factories
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors, with_clock
from tests.kiosk_app.test_accessible_mode import arrow_to, demo_account, heard, listening, spoken  # noqa: F401 (a fixture)

pytestmark = pytest.mark.live
SUCCEEDS = "4242 4242 4242 4242"

# Each text the page puts in its live region (what a screen reader says).
RECORD_ANNOUNCED = """
window.__announced = [];
document.addEventListener("DOMContentLoaded", () => {
  const region = document.getElementById("announcer");
  new MutationObserver(() => region.textContent && window.__announced.push(region.textContent))
    .observe(region, { childList: true, characterData: true, subtree: true });
});
"""

# Each shown, enabled button or field whose centre is in sight (in the window, within its scrolling
# panes: the rest is reached by scrolling) but under something else.
COVERED = """() => {
  const name = (node) => node.id ? `#${node.id}` : `${node.tagName}.${node.className}`;
  const covered = [];
  const inside = (x, y, box) => x >= box.left && x <= box.right && y >= box.top && y <= box.bottom;
  for (const control of document.querySelectorAll("button, input")) {
    if (!control.getClientRects().length || control.closest("[hidden]") || control.disabled) continue;
    const box = control.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
    let clipped = false;
    for (let up = control.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowY !== "visible" && !inside(x, y, up.getBoundingClientRect())) clipped = true;
    }
    if (clipped) continue;
    const top = document.elementFromPoint(x, y);
    if (!top || !control.contains(top)) covered.push(`${name(control)} under ${top ? name(top) : "nothing"}`);
  }
  return covered;
}"""


@pytest.fixture
def long_menu(world):
    """Enough on the menu to be taller than the screen."""
    for name in ("Cola", "Salad", "Ice cream", "Coffee", "Water", "Brownie", "Wrap", "Soup"):
        factories.MenuItemFactory(
            category=world.items["burger"].category, name=name, price_cents=250, description="Made here."
        )


def order_alone(tablet, start: str = "click") -> None:
    """From the attract screen: start, order alone, add Fries."""
    body = tablet.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    if start == "click":
        tablet.click("#start")
    else:
        tablet.keyboard.press("Enter")
    expect(tablet.locator("#order-alone")).to_be_visible()
    tablet.click("#order-alone")
    expect(body).to_have_attribute("data-alone", "true")
    tablet.get_by_role("button", name="Add Fries").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)


@pytest.mark.usefixtures("demo_account")
def test_paying_alone_after_a_reload_nobody_is_said_to_be_here_to_help(world, kiosk, serve, open_page):
    def before(page):
        as_paired(kiosk)(page)
        page.add_init_script(RECORD_ANNOUNCED)

    server = serve()
    tablet = open_page("/kiosk/", server, before=with_clock(before))
    order_alone(tablet)
    tablet.click("#alone-pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")
    tablet.reload()  # the kiosk learns of the payment from its status: no agent in it
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")
    expect(tablet.locator("#alone-title")).to_be_visible()
    tablet.clock.run_for(1000)  # the live region is written a moment after (common/ui.js announce)
    assert not [text for text in tablet.evaluate("window.__announced") if "here to help" in text]
    assert_no_console_errors(tablet)


@pytest.mark.usefixtures("demo_account")
def test_after_pay_in_large_text_the_focus_is_on_the_payment_step_in_sight(world, kiosk, serve, open_page):
    readers.reader_register(kiosk=kiosk, registration_code="simulated-wpe", label="Till")
    server = serve()
    tablet = open_page("/kiosk/", server, before=listening(kiosk))
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    tablet.keyboard.press("Tab")  # accessible mode, then large text by its key
    expect(tablet.locator("body")).to_have_attribute("data-accessible", "true")
    tablet.keyboard.press("8")
    expect(tablet.locator("html")).to_have_attribute("data-text", "large")
    order_alone(tablet, start="key")
    arrow_to(tablet, "#alone-pay")
    tablet.keyboard.press("Enter")

    heading = tablet.locator("#payment-title")
    expect(heading).to_be_focused()
    expect(tablet.locator("#reader-instruction")).not_to_be_empty()
    heard(tablet, r"^To pay: \$\d+\.\d\d\. .*reader")
    heard(tablet, r"^Pay by card\.?$")  # what has the focus, said
    box = heading.bounding_box()
    bar = tablet.locator("#access-bar").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= bar["y"], (box, bar)
    on_top = "node => { const b = node.getBoundingClientRect();"
    on_top += " return node.contains(document.elementFromPoint(b.x + 5, b.y + 5)); }"
    assert heading.evaluate(on_top)
    expect(tablet.locator("#dining")).to_be_visible()
    tablet.keyboard.press("ArrowDown")  # on into the payment step, not back to the top of the screen
    expect(tablet.locator("#payment :focus")).to_have_count(1)
    assert not [text for text in spoken(tablet) if "here to help" in text]
    assert_no_console_errors(tablet)


@pytest.mark.usefixtures("demo_account")
def test_in_the_low_layout_pay_is_whole_above_the_bar(world, kiosk, long_menu, serve, open_page):
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    tablet.keyboard.press("Enter")  # accessible mode: its low layout
    expect(tablet.locator("body")).to_have_attribute("data-accessible", "true")
    order_alone(tablet)
    pay = tablet.locator("#alone-pay")
    expect(pay).to_be_enabled()
    box, bar = pay.bounding_box(), tablet.locator("#access-bar").bounding_box()
    assert box["y"] + box["height"] <= bar["y"] + 0.5, (box, bar)
    assert tablet.evaluate(COVERED) == []
    assert_no_console_errors(tablet)


@pytest.mark.usefixtures("demo_account")
def test_in_standard_mode_the_return_warning_covers_no_control_of_the_thank_you(world, kiosk, serve, open_page):
    server = serve()
    tablet = open_page("/kiosk/?thank_you_seconds=30&warning_seconds=28", server, before=as_paired(kiosk))
    order_alone(tablet)
    tablet.click("#alone-pay")
    expect(tablet.locator("#dining")).to_be_visible()
    tablet.click("#dining-take-away")
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(tablet.locator("#returning")).to_be_visible()  # warned 28 s of 30 ahead
    expect(tablet.locator("#returning-count")).to_have_text(re.compile(r"^Back to the start in \d+ s\.$"))
    assert tablet.evaluate(COVERED) == []
    assert_no_console_errors(tablet)
