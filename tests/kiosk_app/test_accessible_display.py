"""Accessible mode's time and display, in a real Chromium against the live server: the inactivity
warning comes doubled, on screen, with a sound and a voice, and one key extends it; large text
(200 %) and high contrast, turned on from the attract screen, leave nothing cut off, scrolling
sideways or covered, and every text at 7:1 or more, on the attract, ordering and payment screens,
in landscape and portrait."""

import re
import tempfile
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.kiosk_app.test_accessible_mode import arrow_to, demo_account, heard, listening  # noqa: F401 (a fixture)

pytestmark = pytest.mark.live
SHOTS = Path(tempfile.gettempdir())
IDLE, PROMPT = 2, 2  # seconds, doubled by the mode

# What leaves the screen sideways, scrolls sideways, or lies under something else.
LAYOUT_FAULTS = """() => {
  const name = (node) => `${node.tagName}#${node.id}.${node.className}`;
  const width = document.documentElement.clientWidth, height = document.documentElement.clientHeight;
  const faults = [];
  const shown = (node) => node.getClientRects().length > 0 && !node.closest("[hidden]");
  for (const node of document.querySelectorAll("body *")) {
    if (!shown(node) || node.closest(".visually-hidden")) continue;
    const box = node.getBoundingClientRect();
    if (box.width && (box.right > width + 1 || box.left < -1)) faults.push(`${name(node)} leaves the screen`);
  }
  const panes = ".screen:not([hidden]), .menu-pane, .order-pane, #payment, html, body";
  for (const node of document.querySelectorAll(panes)) {
    if (node.scrollWidth > node.clientWidth + 1) faults.push(`${name(node)} scrolls sideways`);
  }
  for (const control of document.querySelectorAll("button, input")) {
    if (!shown(control) || control.disabled) continue;
    const box = control.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > width || y > height) continue;  // scrolled away: reachable by scrolling
    const top = document.elementFromPoint(x, y);
    const dialog = document.querySelector("dialog[open]");
    if (dialog && !dialog.contains(control)) continue;
    if (top && top !== control && !control.contains(top) && !top.closest("label")?.contains(control))
      faults.push(`${name(control)} is covered by ${name(top)}`);
  }
  return faults;
}"""

# Every shown text whose contrast with the background behind it is under `least`.
CONTRAST_FAULTS = """(least) => {
  const channels = (colour) => (colour.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const linear = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
  };
  const behind = (node) => {
    for (let at = node; at; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.backgroundImage !== "none") return null;
      const c = channels(style.backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] >= 0.99)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const faults = [];
  for (const node of document.querySelectorAll("body *")) {
    if (!node.getClientRects().length || node.closest("[hidden], .visually-hidden, :disabled")) continue;
    if (![...node.childNodes].some((child) => child.nodeType === 3 && child.textContent.trim())) continue;
    const background = behind(node);
    if (!background) { faults.push(`${node.tagName}#${node.id}: text on an image`); continue; }
    const text = luminance(channels(getComputedStyle(node).color));
    const [light, dark] = [text, luminance(background)].sort((a, b) => b - a);
    const ratio = (light + 0.05) / (dark + 0.05);
    const words = node.textContent.trim().slice(0, 30);
    if (ratio < least) faults.push(`${node.tagName}#${node.id}.${node.className} "${words}": ${ratio.toFixed(2)}`);
  }
  return faults;
}"""


def test_the_inactivity_warning_is_doubled_said_sounded_and_one_key_extends_it(world, kiosk, serve, open_page):
    server = serve()
    tablet = open_page(f"/kiosk/?idle_seconds={IDLE}&still_there_seconds={PROMPT}", server, before=listening(kiosk))
    body = tablet.locator("body")
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    tablet.keyboard.press("Enter")  # the mode
    expect(body).to_have_attribute("data-accessible", "true")
    untouched = time.monotonic()  # before the last key: the prompt cannot come sooner than IDLE * 2 after it
    tablet.keyboard.press("Enter")  # Start
    expect(body).to_have_attribute("data-screen", "waiting")
    prompt = tablet.locator("#still-there")
    expect(prompt).to_be_visible(timeout=(IDLE * 2 + 5) * 1000)
    assert time.monotonic() - untouched >= IDLE * 2 - 0.5  # doubled
    expect(tablet.locator("#still-there-count")).to_have_text(
        re.compile(rf"^Your session ends in [{PROMPT * 2 - 1}{PROMPT * 2}] s\.$")
    )
    heard(
        tablet, r"^Are you still there\? Your session ends in \d s\. Press any key or tap the button for more time\.$"
    )
    assert tablet.evaluate("window.__tones") >= 1
    tablet.keyboard.press("5")  # any key
    expect(prompt).to_be_hidden()
    expect(body).to_have_attribute("data-screen", "waiting")
    session_id = tablet.evaluate("JSON.parse(localStorage.getItem('kiosk-app.device')).openSession.id")
    assert server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()["status"] == "pending"
    tablet.keyboard.press("Escape")  # back: the customer cancels
    expect(body).to_have_attribute("data-screen", "attract")
    assert_no_console_errors(tablet)


# The room above and below a button's words inside it (equal when they sit in its middle).
WORDS_IN_BUTTON = """(selector) => {
  const button = document.querySelector(selector), words = document.createRange();
  words.selectNodeContents(button);
  const box = button.getBoundingClientRect(), text = words.getBoundingClientRect();
  return [text.top - box.top, box.bottom - text.bottom];
}"""


def assert_fits_and_contrasts(page, where: str) -> None:
    assert page.evaluate(LAYOUT_FAULTS) == [], where
    assert page.evaluate(CONTRAST_FAULTS, 7) == [], where


@pytest.mark.parametrize("size", [(1180, 820), (800, 1280)], ids=["landscape", "portrait"])
def test_large_text_and_high_contrast_from_the_attract_screen(world, kiosk, demo_account, serve, open_page, size):  # noqa: F811
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk), viewport=size)
    html = tablet.locator("html")
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    sizes = (
        "[...document.querySelectorAll('#attract-message, #business-name, #start')]"
        ".map((n) => parseFloat(getComputedStyle(n).fontSize))"
    )
    standard = tablet.evaluate(sizes)
    assert tablet.evaluate(CONTRAST_FAULTS, 7) != []  # the brand's gradient: the check can fail
    tablet.click("#text-toggle")
    tablet.click("#contrast-toggle")
    expect(html).to_have_attribute("data-text", "large")
    expect(html).to_have_attribute("data-contrast", "high")
    expect(tablet.locator("#text-toggle")).to_have_attribute("aria-pressed", "true")
    assert tablet.evaluate(sizes) == [2 * size for size in standard]  # 200 %
    above, below = tablet.evaluate(WORDS_IN_BUTTON, "#start")
    assert abs(above - below) <= 2, f"'Start your order' is not in its button's middle: {above} px above, {below} below"
    assert_fits_and_contrasts(tablet, "attract")

    tablet.click("#start")
    expect(tablet.locator("#order-alone")).to_be_visible()
    assert_fits_and_contrasts(tablet, "waiting")
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Add Fries").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    assert_fits_and_contrasts(tablet, "ordering")
    tablet.click("#alone-pay")
    expect(tablet.locator("#payment")).to_have_attribute("data-mode", "demo")
    expect(tablet.locator("#card-number")).to_be_visible()
    assert_fits_and_contrasts(tablet, "paying")
    assert_no_console_errors(tablet)


# The controls whose shown part starts above `line` (px from the top): none may, in the low layout.
ABOVE_THE_LINE = """(line) => {
  const faults = [];
  for (const control of document.querySelectorAll("button, input, [tabindex='0']")) {
    if (!control.getClientRects().length || control.closest("[hidden]") || control.disabled) continue;
    const box = control.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, Math.max(box.top, line) + 1);
    if (!hit || !(control === hit || control.contains(hit))) continue;  // scrolled away or under something
    const clip = control.closest(".screen, dialog, .access-bar");
    const shownTop = Math.max(box.top, clip ? clip.getBoundingClientRect().top : box.top);
    if (shownTop < line - 1) faults.push(`${control.tagName}#${control.id}.${control.className}: ${shownTop}`);
  }
  return faults;
}"""


def test_the_low_layout_keeps_every_control_below_the_kiosks_reach_line(world, kiosk, demo_account, serve, open_page):  # noqa: F811
    kiosk.mount_height_mm, kiosk.screen_height_mm = 1000, 440  # 1,220 mm is half way up the screen
    kiosk.save(update_fields=["mount_height_mm", "screen_height_mm"])
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk), viewport=(800, 1280))
    expect(tablet.locator("#business-name")).to_have_text("Burger Barn")
    line = tablet.evaluate("innerHeight") * 0.5
    assert tablet.evaluate(ABOVE_THE_LINE, line) != []  # the standard layout: the check can fail
    tablet.keyboard.press("Enter")
    expect(tablet.locator("body")).to_have_attribute("data-accessible", "true")
    assert tablet.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--reach')") == "0.5"

    def assert_within_reach(where: str) -> None:
        assert tablet.evaluate(ABOVE_THE_LINE, line) == [], where

    assert_within_reach("attract")
    expect(tablet.locator("#start")).to_be_focused()  # the mode puts the focus there: Enter starts
    tablet.keyboard.press("Enter")
    expect(tablet.locator("#order-alone")).to_be_visible()
    assert_within_reach("waiting")
    tablet.click("#order-alone")
    tablet.get_by_role("button", name="Add Fries").click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    assert_within_reach("ordering")
    tablet.keyboard.press("Escape")  # leaving asks first: the question opens low too
    expect(tablet.locator("#leave-confirm")).to_be_visible()
    assert_within_reach("leave question")
    tablet.keyboard.press("Enter")
    tablet.click("#alone-pay")
    expect(tablet.locator("#card-number")).to_be_visible()
    assert_within_reach("paying")
    tablet.screenshot(path=str(SHOTS / "kiosk-accessible-paying.png"))
    assert_no_console_errors(tablet)
