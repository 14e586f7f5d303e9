"""The kitchen display and the order board in a real Chromium against a live server: a paid demo
order reaches the kitchen within a second; tapping it through preparing and ready shows its number
under "Ready" on the board within a second (highlighted); the keyboard moves a ticket too; with the
kitchen's socket blocked a new ticket still shows within 3 s, once; a printer out of paper shows on
the kitchen display within 10 s of the paid order it could not print."""

import os
import re
import time
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import expect

from tests.support.auth import agent_session
from tests.support.displays import display_token, pay_demo_order

pytestmark = pytest.mark.live

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
REFRESH_SCREENSHOTS = os.environ.get("PANEL_SCREENSHOTS") == "1"  # the README pictures, on demand
OWN_REFUSALS = r"^Failed to load resource: the server responded with a status of (401|403) "


def block_socket(page) -> None:
    page.route_web_socket(re.compile(r"/app/"), lambda ws: ws.close())


def test_a_paid_order_reaches_the_kitchen_and_ready_reaches_the_board(screens_world, live_screens, screen_page):
    business = screens_world["business"]
    kitchen_token, board_token = display_token(business, "kitchen"), display_token(business, "board")
    server = live_screens()
    agent = agent_session(server.base_url, screens_world["agent"].email)

    kitchen = screen_page(server.base_url, f"/kitchen/#token={kitchen_token}")
    board = screen_page(server.base_url, f"/board/#token={board_token}")
    for page in (kitchen, board):
        expect(page.locator("body")).to_have_attribute("data-realtime", "live")
        expect(page.locator("#business-name")).to_have_text("Burger Barn")
        assert "#token=" not in page.url  # the fragment is cleared once kept
    expect(kitchen.locator("#empty")).to_be_visible()

    order = pay_demo_order(server.base_url, screens_world["kiosk"], agent, screens_world["burger"], quantity=2)
    paid = time.monotonic()
    ticket = kitchen.locator(f"#tickets li[data-id] >> text=#{order['order_number']}")
    expect(ticket).to_be_visible(timeout=1_000)
    assert time.monotonic() - paid <= 1.0
    card = kitchen.locator("#tickets > li").first
    expect(card.locator(".line .name")).to_have_text("Burger")
    expect(card.locator(".line .quantity")).to_have_text("2 ×")
    expect(card.locator(".notes")).to_have_text("no onions")
    expect(card).to_have_attribute("data-age", "fresh")
    expect(board.locator("#preparing li")).to_have_text([order["order_number"]])

    card.locator("button.move").click()  # Start
    expect(card).to_have_attribute("data-status", "preparing")
    expect(card.locator("button.move")).to_be_enabled()
    expect(card.locator("button.move")).to_have_text("Ready")
    card.locator("button.move").focus()
    kitchen.keyboard.press("Enter")  # Ready, from the keyboard
    bumped = time.monotonic()
    expect(card).to_have_attribute("data-status", "ready", timeout=1_000)
    expect(board.locator("#ready li")).to_have_text([order["order_number"]], timeout=1_000)
    assert time.monotonic() - bumped <= 1.0
    expect(board.locator("#ready li.fresh")).to_have_count(1)
    if REFRESH_SCREENSHOTS:
        kitchen.screenshot(path=str(SCREENSHOTS / "kitchen-display.png"))
        board.screenshot(path=str(SCREENSHOTS / "order-board.png"))
    expect(board.locator("#preparing li")).to_have_count(0)

    card.locator("button.move").click()  # Done: the ticket leaves, the number too
    expect(kitchen.locator("#tickets > li")).to_have_count(0)
    expect(board.locator("#ready li")).to_have_count(0)
    kitchen.console_errors.assert_none()
    board.console_errors.assert_none()


def test_with_its_socket_blocked_the_kitchen_shows_a_new_ticket_within_3_s_once(
    screens_world, live_screens, screen_page
):
    business = screens_world["business"]
    token = display_token(business, "kitchen")
    server = live_screens()
    agent = agent_session(server.base_url, screens_world["agent"].email)

    def blocked_with_a_clock(page):
        block_socket(page)
        page.clock.install()  # runs in real time until the test runs it forward

    kitchen = screen_page(server.base_url, f"/kitchen/#token={token}", before=blocked_with_a_clock)
    expect(kitchen.locator("body")).to_have_attribute("data-realtime", "polling")
    expect(kitchen.locator("#live-state")).to_contain_text("Reconnecting")

    order = pay_demo_order(server.base_url, screens_world["kiosk"], agent, screens_world["burger"])
    paid = time.monotonic()
    expect(kitchen.locator("#tickets > li")).to_have_count(1, timeout=3_000)
    assert time.monotonic() - paid <= 3.0
    expect(kitchen.locator("#tickets .number")).to_have_text(f"#{order['order_number']}")
    # It ages: the screen's clock run forward past the late time (KITCHEN_TICKET_LATE_SECONDS).
    expect(kitchen.locator("#tickets > li")).to_have_attribute("data-age", "fresh")
    kitchen.clock.fast_forward(int(settings.KITCHEN_TICKET_LATE_SECONDS * 1000))
    expect(kitchen.locator("#tickets > li")).to_have_attribute("data-age", "late")
    for _ in range(2):  # more polls (each poll period run forward on the screen's clock): still one ticket
        with kitchen.expect_response(lambda response: "/api/displays/kitchen/tickets" in response.url):
            kitchen.clock.fast_forward(int(settings.DISPLAY_POLL_SECONDS * 1000))
    expect(kitchen.locator("#tickets > li")).to_have_count(1)
    kitchen.console_errors.assert_none()


def test_a_revoked_or_foreign_link_shows_nothing_and_says_so(screens_world, live_screens, screen_page, other_business):
    business = screens_world["business"]
    # Tokens before the server starts: embedded, it copies the rows made so far.
    foreign_token, board_token = display_token(other_business, "kitchen"), display_token(business, "board")
    server = live_screens()
    agent = agent_session(server.base_url, screens_world["agent"].email)
    pay_demo_order(server.base_url, screens_world["kiosk"], agent, screens_world["burger"])

    foreign = screen_page(server.base_url, f"/kitchen/#token={foreign_token}")
    expect(foreign.locator("body")).to_have_attribute("data-realtime", "live")
    expect(foreign.locator("#empty")).to_be_visible()
    expect(foreign.locator("#tickets > li")).to_have_count(0)

    wrong = screen_page(server.base_url, "/kitchen/#token=not-a-token")
    expect(wrong.locator("body")).to_have_attribute("data-screen", "signin")
    expect(wrong.locator("#signin-reason")).to_have_text("The display token is invalid or has been revoked.")
    board_link = screen_page(server.base_url, f"/kitchen/#token={board_token}")
    expect(board_link.locator("#signin-reason")).to_have_text("This link opens another screen.")
    wrong.console_errors.assert_none(allow=OWN_REFUSALS)
    foreign.console_errors.assert_none()


def test_a_printer_that_cannot_print_is_shown_on_the_kitchen_display_within_10_s(
    screens_world, live_screens, screen_page
):
    from apps.printing.models import Printer
    from tests.support.fake_printer import PAPER_OUT, FakePrinter

    business = screens_world["business"]
    fake = FakePrinter()
    try:
        fake.state = PAPER_OUT
        Printer.objects.create(business=business, name="Bar", host=fake.host, port=fake.port)
        server = live_screens()
        agent = agent_session(server.base_url, screens_world["agent"].email)
        kitchen = screen_page(server.base_url, f"/kitchen/#token={display_token(business, 'kitchen')}")
        expect(kitchen.locator("body")).to_have_attribute("data-realtime", "live")
        expect(kitchen.locator("#printers")).to_be_hidden()

        order = pay_demo_order(server.base_url, screens_world["kiosk"], agent, screens_world["burger"])
        paid = time.monotonic()
        expect(kitchen.locator(f"#tickets li[data-id] >> text=#{order['order_number']}")).to_be_visible()
        expect(kitchen.locator("#printers .printer")).to_have_text(
            "Kitchen printer “Bar” out of paper: 1 ticket waiting", timeout=10_000
        )
        assert time.monotonic() - paid <= 10.0
        assert fake.tickets == []
    finally:
        fake.close()
