"""Every word on the kiosk comes from its gettext catalogue (locale/<language>/LC_MESSAGES/
djangojs.po, as the server serves it to the kiosk: /api/public/i18n/<language>), in each of its
four languages: a real Chromium walks every screen (pairing with a refused code, attract,
waiting in line, the session with the menu, the item the agent shows, the cart, the payment with
a declined card, the thank-you) and reads every visible text node, accessible name and image
text; each must be a catalogue sentence of that language (its {placeholders} filled by anything)
or data from the server: the business's, agent's and menu's names, prices, numbers, card numbers.
The agent works through the agent API."""

import re

import pytest
from playwright.sync_api import expect

from apps.menu.models import Category, MenuItem
from tests.kiosk_app.conftest import assert_no_console_errors, pair
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live

DECLINED, SUCCEEDS = "4000 0000 0000 0002", "4242 4242 4242 4242"

# Every visible text node, and what a screen reader says of what is visible (aria-label, alt).
VISIBLE_TEXTS = """() => {
  const seen = (element) => element && element.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const where = (element) =>
    `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""} in #${(element.closest("[id]") || {}).id}`;
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/\\s+/g, " ").trim();
    if (text && seen(node.parentElement)) out.push([text, where(node.parentElement)]);
  }
  for (const element of document.body.querySelectorAll("[aria-label], img[alt]")) {
    if (!seen(element)) continue;
    for (const name of ["aria-label", "alt"]) {
      const text = (element.getAttribute(name) || "").trim();
      if (text) out.push([text, `${name} of ${where(element)}`]);
    }
  }
  return out;
}"""

# The catalogue as the server gives it to the kiosk, and the language buttons' names.
CATALOGUE = """async (language) => {
  const served = await (await fetch(new URL(`/api/public/i18n/${language}`, document.baseURI))).json();
  const messages = await import(new URL("/static/kiosk/messages.js", document.baseURI).href);
  return { sentences: Object.values(served.catalog), names: Object.values(messages.LANGUAGE_NAMES) };
}"""

# Server data made of digits: prices, totals, quantities, order numbers, card numbers.
FIGURES = re.compile(r"^[0-9A-Z\s\u00a0\u202f.,:$€£×#–-]*\d[0-9A-Z\s\u00a0\u202f.,:$€£×#–-]*$")

TRANSLATIONS = {
    "es": ("Hamburguesas", "Hamburguesa", "Ternera.", "Patatas fritas"),
    "fr": ("Burgers", "Hamburger", "Bœuf.", "Frites"),
    "de": ("Burger", "Hamburger", "Rind.", "Pommes"),
}


def sentence_pattern(sentence: str) -> re.Pattern:
    return re.compile("^" + re.sub(r"\\\{\w+\\\}", lambda _: "(.+)", re.escape(sentence)) + "$", re.S)


class Reader:
    """Reads the page and says which texts come from neither the catalogue nor the server."""

    def __init__(self, page, language: str, data: set[str]):
        catalogue = page.evaluate(CATALOGUE, language)
        self.page = page
        self.exact = set(catalogue["sentences"]) | set(catalogue["names"]) | data
        self.patterns = [sentence_pattern(s) for s in catalogue["sentences"] if "{" in s]

    def known(self, text: str) -> bool:
        if text in self.exact or FIGURES.match(text):
            return True
        if any(pattern.match(text) for pattern in self.patterns):
            return True
        parts = text.split(" · ")  # the place in line: two sentences side by side
        return len(parts) > 1 and all(self.known(part) for part in parts)

    def check(self, screen: str) -> None:
        texts = self.page.evaluate(VISIBLE_TEXTS)
        assert texts, f"nothing visible on {screen}"
        strangers = sorted({f"{text!r} ({where})" for text, where in texts if not self.known(text)})
        assert strangers == [], f"{screen}: not from the catalogue: {strangers}"


LOCALES = ("en-US", "es-ES", "fr-FR", "de-DE")


def test_every_screen_speaks_only_the_catalogue_in_the_chosen_language(world, serve, open_page):
    """One kiosk, paired once, one customer after another in each of the four languages."""
    demo_account_for(world.business.owner, "acct_demo_walk")
    burger, fries = world.items["burger"], world.items["fries"]
    # The menu in its own words (where a language has no translation) and the empty cart's dash.
    untranslated = {world.business.name, world.agent.name, "Burgers", burger.name, burger.description, fries.name, "–"}
    untranslated.add(fries.description)
    Category.objects.filter(pk=burger.category_id).update(
        translations={language: {"name": words[0]} for language, words in TRANSLATIONS.items()}
    )
    MenuItem.objects.filter(pk=burger.pk).update(
        translations={language: {"name": words[1], "description": words[2]} for language, words in TRANSLATIONS.items()}
    )
    MenuItem.objects.filter(pk=fries.pk).update(
        translations={language: {"name": words[3]} for language, words in TRANSLATIONS.items()}
    )

    def data(language: str) -> set[str]:
        return untranslated | set(TRANSLATIONS.get(language, ()))

    server = serve()
    agent = server.agent(world.agent.email)
    tablet = open_page("/kiosk/", server)

    # Pairing, in each language chosen there; a code too short is refused in it.
    expect(tablet.locator("body")).to_have_attribute("data-screen", "pairing")
    pairing_name = tablet.locator("#pairing-name").input_value()
    for locale in LOCALES:
        language = locale.split("-")[0]
        language_button = f"button.language[data-locale='{locale}']"
        tablet.click(language_button)
        expect(tablet.locator(language_button)).to_have_attribute("aria-pressed", "true")
        read = Reader(tablet, language, data(language) | {pairing_name})
        tablet.fill("#pairing-code", "12")
        tablet.click("#pairing-submit")  # refused in the page, in the language of the moment
        expect(tablet.locator("#pairing-error")).to_be_visible()
        tablet.evaluate("() => new Promise(requestAnimationFrame)")  # this refusal drawn, not the last one
        read.check(f"{locale}: pairing")
    pair(tablet, world.codes["fresh"])

    for locale in LOCALES:
        walk_every_screen(tablet, server, agent, world, locale, data(locale.split("-")[0]))
    assert_no_console_errors(tablet)


def walk_every_screen(tablet, server, agent, world, locale: str, data: set[str]) -> None:
    language = locale.split("-")[0]
    burger, fries = world.items["burger"], world.items["fries"]
    language_button = f"button.language[data-locale='{locale}']"

    # The attract screen: the default attract line is the catalogue's.
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click(language_button)
    expect(tablet.locator(language_button)).to_have_attribute("aria-pressed", "true")
    read = Reader(tablet, language, data)
    read.check(f"{locale}: attract")

    # Waiting: the agent is away, the place in line says nobody is free.
    assert agent.post(f"{server.url}/api/agent/status", json={"status": "offline"}, timeout=10).status_code == 200
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    expect(tablet.locator("#waiting-agents")).to_be_visible()
    read.check(f"{locale}: waiting")

    # The session: the agent, the menu, the empty cart.
    assert agent.post(f"{server.url}/api/agent/status", json={"status": "available"}, timeout=10).status_code == 200
    session_id = agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"][0]["id"]
    assert agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#kiosk-menu-categories .menu-item")).to_have_count(2)
    expect(tablet.locator("#agent-name")).to_have_text(world.agent.name)
    read.check(f"{locale}: session with the menu")

    # The item the agent shows.
    shown = agent.post(f"{server.url}/api/sessions/{session_id}/show", json={"item_id": str(burger.pk)}, timeout=10)
    assert shown.status_code == 200, shown.text
    expect(tablet.locator("#item-shown")).to_be_visible()
    read.check(f"{locale}: the item shown")
    tablet.click("#item-shown-close")
    expect(tablet.locator("#item-shown")).to_be_hidden()

    # The cart.
    lines = [{"menu_item_id": str(burger.pk), "quantity": 2}, {"menu_item_id": str(fries.pk), "quantity": 1}]
    assert agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10).ok
    expect(tablet.locator("#cart-lines li")).to_have_count(2)
    read.check(f"{locale}: cart")

    # The payment, then a declined card.
    assert agent.post(f"{server.url}/api/sessions/{session_id}/payment", timeout=20).status_code == 200
    expect(tablet.locator("#card-number")).to_be_visible()
    expect(tablet.locator("#payment-demo-note")).to_be_visible()
    expect(tablet.locator("#dining")).to_be_visible()
    read.check(f"{locale}: payment")
    tablet.click(f"button.test-card:has-text('{DECLINED}')")
    tablet.click("#pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-state", "declined")
    read.check(f"{locale}: declined card")

    # Paid: the thank-you with what was bought and the receipt.
    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(tablet.locator("#thanks-receipt")).to_be_visible()
    expect(tablet.locator("#thanks-lines li")).to_have_count(2)
    read.check(f"{locale}: thank-you")
    tablet.click("#thanks-done")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    # The screen reader's live region keeps nothing of this customer's for the next one.
    expect(tablet.locator("#announcer")).to_have_text("")
    # The next customer on a page loaded again.
    tablet.reload()
