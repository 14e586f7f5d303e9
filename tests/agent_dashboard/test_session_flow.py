"""The agent's whole working loop in the dashboard: sign in, go available, a kiosk starts a session
through the kiosk API and the card appears live, accept, build a cart with a required modifier group
(one 422 shown next to its line), the kiosk API's order shows the same cart, send to payment against
the processor stand-in, a signed payment_failed shows "declined", cancelling the payment reopens the
cart, a signed payment_intent.succeeded completes the session, and the agent is back in the queue as
available. The video pane says it is unavailable (no internet here) and nothing else cares.
PANEL_SCREENSHOTS=1 refreshes docs/screenshots/agent-session.png from this test."""

import os
import re

import pytest
from playwright.sync_api import expect

from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available
from tests.support.processes import ROOT

pytestmark = pytest.mark.live
SCREENSHOT = ROOT / "docs" / "screenshots" / "agent-session.png"


def add_burger_with_brioche(page) -> None:
    page.click("button.menu-item:has-text('Burger')")
    dialog = page.locator("#modifier-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#modifier-dialog input").first).to_be_focused()
    page.click("#modifier-add")  # nothing chosen: the required group says so in words
    expect(page.locator("#modifier-error")).to_have_text("Bun: choose one.")
    page.keyboard.press("Escape")  # Escape closes the dialog without adding anything
    expect(dialog).to_be_hidden()
    expect(page.locator("#cart-lines li")).to_have_count(0)

    page.click("button.menu-item:has-text('Burger')")
    expect(page.locator("#modifier-dialog input[data-label='Brioche']")).to_be_focused()
    page.keyboard.press("Space")  # the whole choice by keyboard: pick, then Tab to "Add to cart"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.locator("#modifier-add")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()


def test_an_agent_serves_a_kiosk_from_card_to_paid_order(world, serve, processor, open_dashboard):
    [agent] = world.agents
    kiosk = world.kiosk
    server = serve()
    page = open_dashboard(server)

    sign_in_and_go_available(page, agent)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")

    session_id = server.start_session(kiosk)
    incoming = card(page, session_id)
    expect(incoming).to_be_visible()
    expect(incoming.locator(".kiosk-name")).to_have_text("Front counter")
    expect(incoming.locator(".location")).to_have_text("Main St")
    expect(incoming.locator(".business")).to_have_text("Burger Barn")
    expect(incoming.locator(".waiting")).to_have_text("waiting 0:02", timeout=5_000)  # it ticks
    expect(page).to_have_title("(1) Incoming · Agent dashboard")

    incoming.locator("button.accept").focus()
    page.keyboard.press("Enter")  # a real button: the keyboard accepts too
    expect(page.locator("#session")).to_be_visible()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "busy")  # the server's word
    expect(page.locator("button.menu-item:has-text('Shake')")).to_be_disabled()  # sold out

    add_burger_with_brioche(page)
    line = page.locator("#cart-lines li").first
    expect(line.locator(".modifiers")).to_have_text("Bun: Brioche")
    expect(page.locator("#cart-total")).to_have_text("$11.42")  # 10.50 + 8.75 % tax

    # Only one portion of fries is left (the menu says so): the second is refused by the server,
    # said next to its line, and the line is the server's again, price and all.
    expect(
        page.locator("#menu li.menu-entry", has=page.locator(".name", has_text="Fries")).locator(".stock")
    ).to_have_text("1 left")
    page.click("button.menu-item:has-text('Fries')")
    fries = page.locator("#cart-lines li").nth(1)
    expect(page.locator("#cart-total")).to_have_text("$14.68")
    fries.locator("button.increase").click()
    expect(fries.locator(".line-error")).to_have_text("Only 1 of Fries left.")
    expect(page.locator("#cart-error")).to_contain_text(
        "The change was not saved: some lines cannot be ordered as asked."
    )
    expect(fries.locator(".quantity")).to_have_text("1")
    expect(fries.locator(".price")).to_have_text("$3.00")
    expect(page.locator("#cart-subtotal")).to_have_text("$13.50")
    expect(page.locator("#cart-retry")).to_be_hidden()
    expect(page.locator("#send-payment")).to_be_enabled()  # the saved cart can be paid
    # The cart is drawn anew on every change and answer: the keyboard keeps its place on a line.
    more = line.locator("button.increase")
    more.focus()
    page.keyboard.press("Enter")
    expect(line.locator(".quantity")).to_have_text("2")
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(more).to_be_focused()
    page.keyboard.press("Shift+Tab")
    expect(line.locator("button.decrease")).to_be_focused()
    page.keyboard.press("Enter")
    expect(line.locator(".quantity")).to_have_text("1")
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(line.locator("button.decrease")).to_be_focused()
    fries.locator("input.notes").fill("extra salt")
    fries.locator("input.notes").press("Tab")
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(page.locator("#cart-lines .line-error")).to_have_count(0)  # the next saved change clears the refusal
    expect(page.locator("#cart-error")).to_be_hidden()
    expect(page.locator("#cart-total")).to_have_text("$14.68")

    order = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/order").json()
    assert [(line["name"], line["quantity"], line.get("notes")) for line in order["lines"]] == [
        ("Burger", 1, None),
        ("Fries", 1, "extra salt"),
    ]
    assert order["lines"][0]["modifiers"] == [{"group": "Bun", "value": "Brioche"}]
    assert order["total_cents"] == 1468

    expect(page.locator("#video")).to_have_attribute("data-state", "unavailable", timeout=30_000)
    expect(page.locator("#video-state")).to_contain_text("Video unavailable:")
    if os.environ.get("PANEL_SCREENSHOTS"):  # as the panel's: refresh docs/screenshots/ on request
        page.screenshot(path=str(SCREENSHOT))

    page.click("#send-payment")
    expect(page.locator("#payment")).to_have_attribute("data-state", "waiting")
    expect(page.locator("#payment-state")).to_have_text("Waiting for the customer's card…")
    expect(page.locator("#cart-lines button.increase").first).to_be_disabled()  # locked while paying
    [intent] = server.processor.intents.values()
    assert intent["amount"] == 1468

    server.processor_event("payment_intent.payment_failed", intent["id"])
    expect(page.locator("#payment")).to_have_attribute("data-state", "declined")
    # The recorded event's cause (generic_decline), in words, not "declined" for every failure.
    expect(page.locator("#payment-state")).to_contain_text("Card declined: the bank refused the card without saying")

    # The customer wants fewer fries after all: cancel the payment, edit, send again.
    page.click("#cancel-payment")
    expect(page.locator("#payment")).to_have_attribute("data-state", "none")
    expect(page.locator("#send-payment")).to_be_visible()
    assert server.processor.intents[intent["id"]]["status"] == "canceled"
    page.locator("#cart-lines li").nth(1).locator("button.remove").click()
    expect(page.locator("#cart-total")).to_have_text("$11.42")
    expect(page.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    page.click("#send-payment")
    expect(page.locator("#payment")).to_have_attribute("data-state", "waiting")
    [intent] = [i for i in server.processor.intents.values() if i["status"] != "canceled"]
    assert intent["amount"] == 1142

    server.processor_event("payment_intent.succeeded", intent["id"])
    expect(page.locator("#queue")).to_be_visible()
    expect(page.locator("#session-result")).to_contain_text("Paid: order")
    expect(page.locator("#session-result")).to_contain_text("Session completed after")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert status["status"] == "completed"

    page.click("button.tab[data-tab='history']")
    row = page.locator(f"#history-rows tr[data-session-id='{session_id}']")
    expect(row).to_contain_text("Front counter")
    expect(row).to_contain_text("completed")
    expect(row).to_contain_text("$11.42")
    # The agent's own figures for today, from GET /api/reports/me/today.
    figures = page.locator("#history-figures")
    expect(figures.locator("dd")).to_have_text(["1", re.compile(r"\d+ (min \d\d )?s"), "100 %", "$11.42"])
    assert_no_console_errors(page)
