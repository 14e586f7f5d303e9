"""The incoming queue: two agents race for one card (exactly one gets the session, the other is
told "taken by another agent"), a card goes when the kiosk withdraws, and with the WebSocket
blocked the dashboard says so and still shows a new session within 3 s by polling, and stops
polling once the socket is back."""

import re

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available

pytestmark = pytest.mark.live


def test_two_agents_race_and_exactly_one_gets_the_session(world, serve, open_dashboard):
    rival = factories.AgentFactory(owner=world.business.owner, name="Bo Agent", agent_status="offline")
    server = serve()
    pages = [open_dashboard(server), open_dashboard(server)]
    for page, agent in zip(pages, [world.agents[0], rival], strict=True):
        sign_in_and_go_available(page, agent)
        expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")

    session_id = server.start_session(world.kiosk)
    buttons = [card(page, session_id).locator("button.accept") for page in pages]
    for button in buttons:
        expect(button).to_be_visible()
    # Both click before either answer can arrive: the server decides.
    for page in pages:
        page.evaluate(
            "(id) => document.querySelector(`#incoming li[data-session-id='${id}'] button.accept`).click()", session_id
        )

    def outcome(page):
        expect(page.locator("#session:visible, #alert:visible")).to_have_count(1)
        return "session" if page.locator("#session").is_visible() else "taken"

    outcomes = [outcome(page) for page in pages]
    assert sorted(outcomes) == ["session", "taken"], outcomes
    loser = pages[outcomes.index("taken")]
    winner = pages[outcomes.index("session")]
    expect(loser.locator("#alert")).to_have_text("Front counter: taken by another agent.")
    expect(card(loser, session_id)).to_have_count(0)
    expect(winner.locator("#agent-status")).to_have_attribute("data-status", "busy")
    for page in pages:
        assert_no_console_errors(page)


COUNT_TONES = """
window.__tones = 0;
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones += 1; return createOscillator.call(this); };
"""


def test_a_card_rings_unless_muted_and_goes_away_when_the_kiosk_withdraws(world, serve, open_dashboard):
    server = serve()
    page = open_dashboard(server)
    page.add_init_script(COUNT_TONES)
    page.reload()
    sign_in_and_go_available(page, world.agents[0])
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    session_id = server.start_session(world.kiosk)
    expect(card(page, session_id)).to_be_visible()
    expect(page.locator("#announcer")).to_have_text("New session from Front counter, Burger Barn.")
    assert page.evaluate("window.__tones") == 2  # the ring: two short tones

    assert server.kiosk_call(world.kiosk, "POST", f"/sessions/{session_id}/cancel").status_code == 200
    expect(card(page, session_id)).to_have_count(0)
    expect(page.locator("#queue-empty")).to_be_visible()
    expect(page).to_have_title("Agent dashboard")

    page.click("#mute")
    expect(page.locator("#mute")).to_have_attribute("aria-pressed", "true")
    again = server.start_session(world.kiosk)
    expect(card(page, again)).to_be_visible()
    assert page.evaluate("window.__tones") == 2  # muted: no new tones

    page.reload()  # muting is remembered on this device
    expect(page.locator("#mute")).to_have_text("Unmute ring")
    assert_no_console_errors(page)


def test_socket_blocked_polling_shows_a_new_session_within_3_s_until_the_socket_is_back(world, serve, open_dashboard):
    server = serve()
    page = open_dashboard(server)
    blocked = True

    def socket(ws):  # while blocked, closed as soon as it opens, like a proxy refusing WebSockets
        if blocked:
            ws.close()
        else:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r"/app/"), socket)
    page.reload()
    sign_in_and_go_available(page, world.agents[0])
    expect(page.locator("#live-state")).to_have_attribute("data-state", "polling")
    expect(page.locator("#live-state")).to_contain_text("unavailable")

    session_id = server.start_session(world.kiosk)
    expect(card(page, session_id)).to_be_visible(timeout=3_000)

    # The socket comes back: the dashboard says so and stops polling.
    blocked = False
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected", timeout=30_000)
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "/api/sessions/incoming" in request.url else None)
    page.wait_for_timeout(5_000)
    assert len(polls) <= 1, polls  # at most the one read right after subscribing
    assert_no_console_errors(page)
