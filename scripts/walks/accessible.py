"""Issue 41's "Done when", on the real `make run` service: a customer who cannot see the screen
starts accessible mode with the keyboard only and completes an order alone (self-service), then
pays on the demo reader.

A kiosk is paired with a code `/` gives (it gets a simulated reader). With nobody of the team
signed in, the kiosk offers ordering alone at once. Every key goes to the kiosk page: Tab starts
the mode, Enter starts the order, the arrows move, + and - change quantities, 8 and 2 turn on large
text and high contrast, Enter pays; the card is presented on the reader's own page (the reader is
not the kiosk). What the page speaks is recorded by observing the page's real
speechSynthesis.speak, and any mouse or touch event reaching the kiosk page fails the walk.

    make run PORT=8731      # in one terminal (nobody signed in to /agent/)
    .venv/bin/python scripts/walks/accessible.py --base-url http://127.0.0.1:8731
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Locator, Page, expect
from walk import Walk, covered, kiosk_code, main, overflow, pair_kiosk, reader_page_of

KIOSK_VIEW = (1180, 820)

# Each utterance as the page speaks it (the real speak is still called), the warning tones, and
# every pointer, mouse or touch event that reaches the page from outside (isTrusted).
LISTEN = """
window.__spoken = [];
window.__pointer = [];
const realSpeak = window.speechSynthesis.speak.bind(window.speechSynthesis);
window.speechSynthesis.speak = (utterance) => {
  window.__spoken.push({ text: utterance.text, lang: utterance.lang, at: Date.now() });
  return realSpeak(utterance);
};
for (const type of ["pointerdown", "pointerup", "mousedown", "mouseup", "touchstart", "touchend", "click"]) {
  const outside = (event) => event.isTrusted && event.detail !== 0 && window.__pointer.push(type);
  document.addEventListener(type, outside, true);
}
"""


def spoken(page: Page) -> list[str]:
    return [entry["text"] for entry in page.evaluate("window.__spoken || []")]


def heard(page: Page, pattern: str, timeout: float = 30) -> str:
    """The first utterance matching `pattern`, waited for."""
    regex = re.compile(pattern)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = next((text for text in spoken(page) if regex.search(text)), None)
        if found is not None:
            return found
        page.wait_for_timeout(200)
    raise AssertionError(f"no utterance matching {pattern!r}; heard {spoken(page)[-8:]}")


def arrow_to(page: Page, target: str | Locator, presses: int = 40) -> None:
    """The down arrow alone, until `target` has the focus."""
    locator = page.locator(target) if isinstance(target, str) else target
    has_focus = "node => node === document.activeElement"
    for _ in range(presses):
        if locator.count() and locator.first.evaluate(has_focus):
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{target} cannot be reached with the arrows")


def focused(page: Page) -> str:
    return page.evaluate(
        "() => { const n = document.activeElement; return n ? `${n.tagName.toLowerCase()}#${n.id} "
        "${(n.innerText || n.value || '').trim().slice(0, 60)}` : 'nothing'; }"
    )


def walk_accessible(walk: Walk) -> None:
    name = f"Kiosk D {time.strftime('%H%M%S')}"
    landing = walk.open("landing", "/", (1280, 900))
    with walk.step("A kiosk pairs with a new code from / (it gets a demo reader)"):
        code = kiosk_code(walk, landing, renew=True)
        setup = walk.open("kiosk setup", "/kiosk/", KIOSK_VIEW)
        pair_kiosk(setup, code, name)
        device = setup.evaluate("localStorage.getItem('kiosk-app.device')")
        setup.context.close()
        del walk.pages["kiosk setup"]
        reader_url = reader_page_of(walk, landing, name)

    # The customer's kiosk: the same device (its stored pairing), with speech observed.
    kiosk = walk.open("kiosk", "about:blank", KIOSK_VIEW)
    kiosk.context.add_init_script(
        f"if (!localStorage.getItem('kiosk-app.device')) localStorage.setItem('kiosk-app.device', {device!r});"
    )
    kiosk.context.add_init_script(LISTEN)
    body = kiosk.locator("body")

    with walk.step("The attract screen, accessible mode off", kiosk, "attract"):
        kiosk.goto("/kiosk/")
        expect(body).to_have_attribute("data-screen", "attract")
        expect(kiosk.locator("#business-name")).to_have_text("Burger Barn")
        expect(body).to_have_attribute("data-accessible", "false")
        box = kiosk.locator("#access-toggle").bounding_box()
        assert box is not None
        walk.check(
            box["y"] + box["height"] >= KIOSK_VIEW[1] - 24, f"the mode's button is not at the bottom edge: {box}"
        )

    with walk.step("Tab starts accessible mode: announced, with its keys; focus on Start", kiosk, "accessible-on"):
        kiosk.keyboard.press("Tab")
        expect(body).to_have_attribute("data-accessible", "true")
        walk.note(f"said: {heard(kiosk, r'^Accessible mode is on')!r}")
        expect(kiosk.locator("#start")).to_be_focused()

    with walk.step("Enter starts the order; nobody signed in: ordering alone is offered, and said", kiosk, "waiting"):
        kiosk.keyboard.press("Enter")
        expect(body).to_have_attribute("data-screen", "waiting")
        heard(kiosk, r"^Finding someone to help you")
        expect(kiosk.locator("#order-alone")).to_be_visible()
        walk.note(f"said: {heard(kiosk, r'order on your own')!r}")

    with walk.step("The arrows reach 'Order on your own', Enter opens the menu", kiosk, "alone-menu"):
        arrow_to(kiosk, "#order-alone")
        kiosk.keyboard.press("Enter")
        expect(body).to_have_attribute("data-alone", "true")
        walk.note(f"said: {heard(kiosk, r'^You are ordering on your own')!r}")
        walk.note(f"focus: {focused(kiosk)}")

    fries = kiosk.locator("#kiosk-menu-categories .menu-item", has=kiosk.locator(".name", has_text="Fries"))
    cola = kiosk.locator("#kiosk-menu-categories .menu-item", has=kiosk.locator(".name", has_text="Cola"))
    with walk.step("Fries by arrows (price and allergens said), + twice, - once", kiosk, "fries"):
        arrow_to(kiosk, fries)
        walk.note(f"said: {heard(kiosk, r'^Fries, ')!r}")
        kiosk.keyboard.press("+")
        expect(kiosk.locator("#cart-lines li")).to_have_count(1)
        kiosk.keyboard.press("+")
        expect(kiosk.locator("#cart-lines li").first.locator(".quantity")).to_have_text("2 ×")
        kiosk.keyboard.press("-")
        expect(kiosk.locator("#cart-lines li").first.locator(".quantity")).to_have_text("1 ×")
        expect(fries).to_be_focused()
        walk.note(f"said: {heard(kiosk, r'^Your order: 1 Fries')!r}")

    with walk.step("Cola by arrows and +", kiosk, "cola"):
        arrow_to(kiosk, cola)
        kiosk.keyboard.press("+")
        # Cola has a size: its options open in a dialog, the focus on the first option.
        expect(kiosk.locator("#item-options")).to_be_visible()
        walk.note(f"said: {heard(kiosk, r'Cola')!r}; focus: {focused(kiosk)}")
        walk.shot(kiosk, "cola-options")
        kiosk.keyboard.press("Enter")  # the size in focus (Small)
        arrow_to(kiosk, "#item-options-add")
        kiosk.keyboard.press("Enter")
        expect(kiosk.locator("#item-options")).to_be_hidden()
        expect(kiosk.locator("#cart-lines li")).to_have_count(2)
        walk.note(f"said: {heard(kiosk, r'^Your order: 1 Fries.*Cola.*Total')!r}")

    with walk.step("8 turns on large text, 2 high contrast: nothing cut off or covered", kiosk, "large-contrast"):
        kiosk.keyboard.press("8")
        html = kiosk.locator("html")
        expect(html).to_have_attribute("data-text", "large")
        kiosk.keyboard.press("2")
        expect(html).to_have_attribute("data-contrast", "high")
        walk.check(not overflow(kiosk), f"large text: cut off or sideways: {overflow(kiosk)}")
        walk.check(not covered(kiosk), f"large text: controls covered: {covered(kiosk)}")
    walk.shot(kiosk, "large-contrast-full", full_page=True)

    with walk.step("Pay: the payment step is said, focus in it", kiosk, "payment"):
        arrow_to(kiosk, "#alone-pay")
        kiosk.keyboard.press("Enter")
        expect(kiosk.locator("#payment")).to_be_visible()
        method = kiosk.locator("#payment").get_attribute("data-method")
        walk.note(f"payment method on the kiosk: {method}")
        walk.check(method == "card_present", f"self-service pays with {method!r}, not on the reader")
        walk.note(f"said: {heard(kiosk, r'^To pay')!r}")
        walk.note(f"focus: {focused(kiosk)}")
        if kiosk.locator("#dining").is_visible():
            arrow_to(kiosk, "#dining-take-away")
            kiosk.keyboard.press("Enter")
            expect(kiosk.locator("#dining-take-away")).to_have_attribute("aria-pressed", "true")
        walk.check(not covered(kiosk), f"payment step: controls covered: {covered(kiosk)}")

    reader = walk.open("reader", reader_url, (900, 700))
    with walk.step("The reader holds the amount; a declined card is said on the kiosk", kiosk, "declined"):
        expect(reader.locator("[data-screen='holding']")).to_be_visible()
        reader.click("button[data-card='declined']")
        expect(kiosk.locator("#payment")).to_have_attribute("data-state", "declined")
        walk.note(f"said: {heard(kiosk, r'[Dd]eclined')!r}")
    with walk.step("An approved card: the thank-you and order number are said", kiosk, "thanks"):
        expect(reader.locator("[data-screen='holding']")).to_be_visible()
        reader.click("button[data-card='approved']")
        expect(body).to_have_attribute("data-screen", "thanks")
        number = kiosk.locator("#order-number").inner_text()
        walk.note(f"said: {heard(kiosk, rf'Your order number is {re.escape(number)}')!r}")
        walk.note(f"focus: {focused(kiosk)}")
        walk.check(not overflow(kiosk), f"thank-you: cut off or sideways: {overflow(kiosk)}")
    walk.shot(reader, "reader-approved")

    with walk.step("The return to the start warns ahead; a key extends it; Escape leaves", kiosk, "returning"):
        # The thank-you screen lasts 30 s (60 s in accessible mode) and warns 40 s ahead.
        expect(kiosk.locator("#returning")).to_be_visible(timeout=90_000)
        walk.note(f"warning: {kiosk.locator('#returning-count').inner_text()!r}")
        walk.note(f"said: {heard(kiosk, r'^Back to the start')!r}")
        kiosk.keyboard.press("ArrowDown")
        expect(kiosk.locator("#returning")).to_be_hidden()
        kiosk.keyboard.press("Escape")
        expect(body).to_have_attribute("data-screen", "attract")
        expect(body).to_have_attribute("data-accessible", "false")

    pointer = kiosk.evaluate("window.__pointer")
    walk.check(pointer == [], f"pointer events reached the kiosk page: {pointer}")
    said = kiosk.evaluate("window.__spoken")
    (walk.out / "spoken.txt").write_text("\n".join(entry["text"] for entry in said) + "\n")
    print(f"  {len(said)} utterances, in {walk.out / 'spoken.txt'}")
    walk.check({entry["lang"] for entry in said} == {"en-US"}, f"languages spoken: { ({e['lang'] for e in said}) }")


if __name__ == "__main__":
    main("accessible", __doc__ or "", walk_accessible)
