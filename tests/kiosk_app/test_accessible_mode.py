"""Accessible mode in a real Chromium against the live server: a customer who cannot see the
screen starts it with a key on the attract screen and orders alone with the keyboard only (arrows,
Enter, Escape, + and -, the command keys), paying with the on-screen demo card; no mouse or touch
event reaches the page, and every screen's words are spoken, through the page's real
speechSynthesis.speak, which an init script observes. The session's status says accessible_mode.
Then the mode in Spanish, left with one key, turned on mid-session by the button at the bottom edge,
and the warned, extendable return after the thank-you screen."""

import re

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.payments import demo_account_for
from tests.support.processes import wait_until

pytestmark = pytest.mark.live
THANKS, WARNING = 4, 2

# Each utterance as the page speaks it (the real speak is still called), every tone of a warning's
# sound, and every pointer, mouse or touch event the page receives from outside (isTrusted).
LISTEN = """
window.__spoken = [];
window.__pointer = [];
const realSpeak = window.speechSynthesis.speak.bind(window.speechSynthesis);
window.speechSynthesis.speak = (utterance) => {
  window.__spoken.push({ text: utterance.text, lang: utterance.lang, rate: utterance.rate });
  return realSpeak(utterance);
};
window.__tones = 0;
const realOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () {
  window.__tones += 1;
  return realOscillator.call(this);
};
for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend"]) {
  document.addEventListener(type, (event) => event.isTrusted && window.__pointer.push(type), true);
}
"""


@pytest.fixture
def demo_account(world):
    demo_account_for(world.business.owner, "acct_demo_access")


@pytest.fixture
def allergens(world):
    burger = world.items["burger"]
    burger.allergens = ["gluten", "milk"]
    burger.save(update_fields=["allergens"])


def listening(kiosk):
    paired = as_paired(kiosk)

    def install(page):
        paired(page)
        page.add_init_script(LISTEN)

    return install


def spoken(page) -> list[str]:
    return [entry["text"] for entry in page.evaluate("window.__spoken")]


def heard(page, pattern: str, timeout: float = 10) -> str:
    """Waits until an utterance matches `pattern`; answers it."""
    regex = re.compile(pattern)

    def found():
        return next((text for text in spoken(page) if regex.search(text)), None)

    return wait_until(found, timeout, lambda: f"an utterance matching {pattern!r} in {spoken(page)}", every=0.1)


def arrow_to(page, target, presses: int = 30) -> None:
    """Moves the focus with the down arrow alone until `target` (a selector or locator) has it."""
    locator = page.locator(target) if isinstance(target, str) else target
    has_focus = "node => node === document.activeElement"
    for _ in range(presses):
        if locator.evaluate(has_focus):
            return
        page.keyboard.press("ArrowDown")
    assert locator.evaluate(has_focus), f"{target} is not reachable with the arrows"


def test_a_customer_starts_accessible_mode_by_key_and_orders_and_pays_alone_without_a_pointer(
    world, kiosk, demo_account, allergens, serve, open_page
):
    server = serve()
    # Short times (settings tests may shorten), doubled by the mode: the thank-you screen lasts 8 s
    # and warns 4 s ahead.
    tablet = open_page(f"/kiosk/?thank_you_seconds={THANKS}&warning_seconds={WARNING}", server, before=listening(kiosk))
    body = tablet.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")
    expect(body).to_have_attribute("data-accessible", "false")
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")

    # Any key starts it: Tab here. It is announced with its keys, and the focus is on "Start".
    tablet.keyboard.press("Tab")
    expect(body).to_have_attribute("data-accessible", "true")
    heard(tablet, r"^Accessible mode is on: the screen is read aloud\. Burger Barn\. Press Enter to start your order\.")
    heard(tablet, r"0 calls a person, 8 large text, 2 high contrast, and the hash key leaves accessible mode\.$")
    expect(tablet.locator("#start")).to_be_focused()
    expect(tablet.locator("#access-toggle")).to_have_attribute("aria-pressed", "true")
    tablet.keyboard.press("6")  # faster
    heard(tablet, r"^Speed 125 %\.$")

    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.keyboard.press("Enter")
    assert started.value.request.post_data_json["accessible_mode"] is True
    session_id = started.value.json()["session_id"]
    expect(body).to_have_attribute("data-screen", "waiting")
    heard(tablet, r"^Finding someone to help you")
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert status["accessible_mode"] is True

    # Nobody of the team is signed in: ordering alone is offered, and said.
    expect(tablet.locator("#order-alone")).to_be_visible()
    heard(tablet, r"order on your own while you wait")
    arrow_to(tablet, "#order-alone")
    tablet.keyboard.press("Enter")
    expect(body).to_have_attribute("data-alone", "true")
    heard(tablet, r"^You are ordering on your own\. .*Your order is empty\.")

    # The menu by arrows: each item with its price and allergens; + adds, - takes one away.
    burger = tablet.locator("#kiosk-menu-categories .menu-item", has=tablet.locator(".name", has_text="Burger"))
    fries = tablet.locator("#kiosk-menu-categories .menu-item", has=tablet.locator(".name", has_text="Fries"))
    expect(burger).to_be_focused()
    heard(tablet, r"^Burger, \$?10\.00\. Contains: Gluten, Milk\.$")
    tablet.keyboard.press("+")
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    heard(tablet, r"^Your order: 1 Burger, \$10\.00\. Total \$\d+\.\d\d\.$")
    arrow_to(tablet, fries)
    heard(tablet, r"^Fries, \$?3\.00\.$")
    tablet.keyboard.press("+")
    expect(tablet.locator("#cart-lines li")).to_have_count(2)
    tablet.keyboard.press("+")
    expect(tablet.locator("#cart-lines li").nth(1).locator(".quantity")).to_have_text("2 ×")
    expect(fries).to_be_focused()  # the menu redrawn around it kept the focus
    tablet.keyboard.press("-")
    expect(tablet.locator("#cart-lines li").nth(1).locator(".quantity")).to_have_text("1 ×")
    heard(tablet, r"^Your order: 1 Burger, \$10\.00; 1 Fries, \$3\.00\. Total")

    # Escape goes back: leaving with a cart asks first, and the focus is in the question.
    tablet.keyboard.press("Escape")
    expect(tablet.locator("#leave-confirm")).to_be_visible()
    expect(tablet.locator("#leave-confirm-no")).to_be_focused()
    heard(tablet, r"^Stay")
    tablet.keyboard.press("Enter")  # stay
    expect(tablet.locator("#leave-confirm")).to_be_hidden()

    # "5" repeats the screen and what has the focus.
    tablet.keyboard.press("5")
    heard(tablet, r"^You are ordering on your own\..*Total .*\. Arrows move through the menu.*\. .+")

    # Pay: the payment step is spoken, the focus goes into it; a demo card and Pay by keys.
    arrow_to(tablet, "#alone-pay")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")
    heard(tablet, r"^To pay: \$\d+\.\d\d\. Demo payments: move to a demo card and press Enter")
    expect(tablet.locator("#dining")).to_be_visible()  # asked (the default): read after the card step opens
    arrow_to(tablet, "#dining-take-away")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#dining-take-away")).to_have_attribute("aria-pressed", "true")
    # A declined card: the error is spoken; the focus stays in the payment step.
    arrow_to(tablet, "button.test-card:has-text('4000 0000 0000 0002')")
    tablet.keyboard.press("Enter")
    arrow_to(tablet, "#pay")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "declined")
    heard(tablet, r"^Card declined, try another card\.$")
    arrow_to(tablet, "button.test-card:has-text('4242 4242 4242 4242')")
    heard(tablet, r"^4242 4242 4242 4242 succeeds\.?$")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#card-number")).to_have_value("4242 4242 4242 4242")
    arrow_to(tablet, "#pay")
    tablet.keyboard.press("Enter")

    expect(body).to_have_attribute("data-screen", "thanks")
    number = tablet.locator("#order-number").inner_text()
    heard(tablet, rf"^Thank you!? Your order number is {re.escape(number)}\. Paid \$\d+\.\d\d\.$")
    expect(tablet.locator("#thanks-done")).to_be_focused()

    order = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/order").json()
    assert order["order_number"] == number and order["paid"] is True
    assert [line["name"] for line in order["lines"]] == ["Burger", "Fries"]
    assert tablet.evaluate("window.__pointer") == []  # the keyboard alone
    said = tablet.evaluate("window.__spoken")
    assert {entry["lang"] for entry in said} == {"en-US"}
    faster = [entry["text"] for entry in said].index("Speed 125 %.")
    assert {entry["rate"] for entry in said[faster:]} == {1.25}  # the rate the customer set

    # The return to the start warns ahead, on screen, by sound and by voice; one key extends it.
    warning = tablet.locator("#returning")
    expect(warning).to_be_visible(timeout=(THANKS * 2 + 5) * 1000)
    expect(tablet.locator("#returning-count")).to_have_text(
        re.compile(rf"^Back to the start in [{WARNING * 2 - 1}{WARNING * 2}] s\.$")
    )
    heard(tablet, r"^Back to the start in \d s\. Press any key or tap the button for more time\.$")
    assert tablet.evaluate("window.__tones") >= 1
    tablet.keyboard.press("ArrowDown")
    expect(warning).to_be_hidden()
    expect(body).to_have_attribute("data-screen", "thanks")
    expect(warning).to_be_visible(timeout=(THANKS * 2 + 5) * 1000)  # the full time again, then warned again

    # Done by key: back to the start, the mode off for the next customer.
    tablet.keyboard.press("ArrowUp")  # extended again
    expect(warning).to_be_hidden()
    tablet.keyboard.press("Escape")
    expect(body).to_have_attribute("data-screen", "attract")
    expect(body).to_have_attribute("data-accessible", "false")
    assert_no_console_errors(tablet)


def test_in_spanish_left_with_one_key_and_turned_on_mid_session_by_the_button(world, kiosk, serve, open_page):
    server = serve()
    tablet = open_page("/kiosk/", server, before=listening(kiosk))
    body = tablet.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")
    # The screen says the business's name once the kiosk's profile is read: wait for it, or a
    # loaded machine repeats the screen below before the name is known.
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    tablet.keyboard.press("ArrowDown")
    expect(body).to_have_attribute("data-accessible", "true")
    arrow_to(tablet, "button.language[data-locale='es-ES']")
    heard(tablet, r"^Español\.?$")
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#start")).to_have_text("Empieza tu pedido")
    tablet.keyboard.press("5")
    heard(tablet, r"^Burger Barn\. Pulsa Intro para empezar tu pedido\.")
    assert "es-ES" in {entry["lang"] for entry in tablet.evaluate("window.__spoken")}

    # "#" leaves the mode, saying so.
    tablet.keyboard.press("#")
    expect(body).to_have_attribute("data-accessible", "false")
    heard(tablet, r"^El modo accesible está desactivado\.$")

    # A session started by touch, without it; then the button at the bottom edge: the server hears it.
    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.click("#start")
    session_id = started.value.json()["session_id"]
    expect(body).to_have_attribute("data-screen", "waiting")
    expect(body).to_have_attribute("data-accessible", "false")
    assert server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()["accessible_mode"] is False
    toggle = tablet.locator("#access-toggle")
    expect(toggle).to_have_text("Modo accesible")
    box, viewport = toggle.bounding_box(), tablet.viewport_size
    assert box["y"] + box["height"] >= viewport["height"] - 24  # at the bottom edge
    asked_again = re.compile(r"/timeout$")  # then the server's pending timeout, doubled by the mode
    with (
        tablet.expect_response(lambda r: asked_again.search(r.url) and r.request.method == "POST") as extended,
        tablet.expect_response(re.compile(r"/accessible$")) as told,
    ):
        toggle.focus()
        tablet.keyboard.press("Enter")
    assert told.value.status == 200
    assert extended.value.json()["seconds_left"] > 180  # SESSION_PENDING_TIMEOUT, twice
    expect(body).to_have_attribute("data-accessible", "true")
    heard(tablet, r"^El modo accesible está activado: la pantalla se lee en voz alta\. Buscando a alguien")
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert status["accessible_mode"] is True
    assert_no_console_errors(tablet)


LONG_ORDER = [f"Side {n}" for n in range(1, 15)]  # with the Burger, fifteen lines: more than the list shows


@pytest.fixture
def long_menu(world):
    category = world.items["burger"].category
    for name in LONG_ORDER:
        factories.MenuItemFactory(category=category, name=name, price_cents=150)


def test_a_long_order_on_the_thank_you_screen_is_read_line_by_line_by_keypad(
    world, kiosk, demo_account, long_menu, serve, open_page
):
    server = serve()
    tablet = open_page("/kiosk/?thank_you_seconds=600", server, before=listening(kiosk))
    body = tablet.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")
    tablet.keyboard.press("Tab")
    expect(body).to_have_attribute("data-accessible", "true")
    expect(tablet.locator("#start")).to_be_focused()
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#order-alone")).to_be_visible()
    arrow_to(tablet, "#order-alone")
    tablet.keyboard.press("Enter")
    expect(body).to_have_attribute("data-alone", "true")

    # A long order by keys: each item reached with the arrows, + adds it.
    menu = tablet.locator("#kiosk-menu-categories .menu-item")
    expect(menu.first).to_be_focused()
    for count, name in enumerate(["Burger", *LONG_ORDER], start=1):
        item = menu.filter(has=tablet.locator(".name", has_text=re.compile(rf"^{name}$")))
        arrow_to(tablet, item, presses=60)
        tablet.keyboard.press("+")
        expect(tablet.locator("#cart-lines li")).to_have_count(count)
    arrow_to(tablet, "#alone-pay", presses=80)
    tablet.keyboard.press("Enter")
    arrow_to(tablet, "button.test-card:has-text('4242 4242 4242 4242')")
    tablet.keyboard.press("Enter")
    arrow_to(tablet, "#pay")
    tablet.keyboard.press("Enter")
    expect(body).to_have_attribute("data-screen", "thanks")
    lines = tablet.locator("#thanks-lines li")
    expect(lines).to_have_count(1 + len(LONG_ORDER))
    expect(tablet.locator("#thanks-done")).to_be_focused()

    # The list scrolls, and its last line is out of sight to begin with.
    thanks_list = tablet.locator("#thanks-lines")
    last = lines.last
    assert thanks_list.evaluate("list => list.scrollHeight > list.clientHeight")
    assert not in_sight(thanks_list, last)

    # The arrows find it like any control; it says what it is and its first line.
    arrow_to(tablet, thanks_list)
    heard(tablet, r"^What you ordered: the up and down arrows read it line by line\. Line 1 of 15: 1 Burger, \$10\.00")
    tablet.keyboard.press("ArrowDown")
    heard(tablet, r"^Line 2 of 15: 1 Side 1, \$1\.50\.$")
    expect(thanks_list).to_be_focused()
    # PageDown goes a screenful and scrolls the list; PageUp back.
    paged = int(re.match(r"^Line (\d+) of 15: ", press_and_hear(tablet, "PageDown"))[1])
    assert paged > 3
    assert thanks_list.evaluate("list => list.scrollTop") > 0
    assert press_and_hear(tablet, "PageUp").startswith("Line 2 of 15: ")
    # Down to the last line: it comes into sight and is spoken.
    for _ in range(len(LONG_ORDER) - 1):
        tablet.keyboard.press("ArrowDown")
    heard(tablet, r"^Line 15 of 15: 1 Side 14, \$1\.50\.$")
    expect(last).to_have_attribute("aria-current", "true")
    assert in_sight(thanks_list, last)
    expect(thanks_list).to_be_focused()

    # Large text redraws the screen around it: the focus and the line read stay.
    tablet.keyboard.press("8")
    expect(tablet.locator("html")).to_have_attribute("data-text", "large")
    expect(thanks_list).to_be_focused()
    tablet.keyboard.press("ArrowUp")
    heard(tablet, r"^Line 14 of 15: 1 Side 13, \$1\.50\.$")
    tablet.keyboard.press("End")
    expect(last).to_have_attribute("aria-current", "true")

    # No trap: down from the last line goes on to the next control, and up comes back to it.
    tablet.keyboard.press("ArrowDown")
    expect(thanks_list).not_to_be_focused()
    tablet.keyboard.press("ArrowUp")
    expect(thanks_list).to_be_focused()
    tablet.keyboard.press("Tab")
    expect(thanks_list).not_to_be_focused()
    assert tablet.evaluate("window.__pointer") == []  # the keyboard alone
    assert_no_console_errors(tablet)


def press_and_hear(page, key: str) -> str:
    """Presses `key` and answers the first utterance after it."""
    before = len(spoken(page))
    page.keyboard.press(key)
    return wait_until(lambda: spoken(page)[before:][:1], 10, f"an utterance after {key}", every=0.1)[0]


def in_sight(scroller, line) -> bool:
    """Whether `line` lies wholly within the list's visible box and the window."""
    return scroller.evaluate(
        """(list, line) => {
            const box = list.getBoundingClientRect(), own = line.getBoundingClientRect();
            return own.top >= Math.max(box.top, 0) - 1 && own.bottom <= Math.min(box.bottom, window.innerHeight) + 1;
        }""",
        line.element_handle(),
    )
