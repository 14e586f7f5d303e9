"""The incoming queue: two agents race for one card (exactly one gets the session, the other is
told "taken by another agent"), an agent already in a session is told so on accept and offered
the next session when it ends, a card goes
when the kiosk withdraws, and with the WebSocket blocked the dashboard says so and still shows a
new session within 3 s by polling, and stops polling once the socket is back."""

import re
import time
from datetime import datetime

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
    # Both click at the same instant (one clock for both pages), before either answer can
    # arrive: the server decides. Clicking one page after the other let a loaded machine deliver
    # the first accept's SessionClaimed before the second click, removing its card.
    at = time.time() * 1000 + 1000
    for page in pages:
        page.evaluate(
            "([id, at]) => setTimeout(() => document.querySelector("
            "`#incoming li[data-session-id='${id}'] button.accept`).click(), Math.max(0, at - Date.now()))",
            [session_id, at],
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


def test_an_agent_already_in_a_session_is_told_so_on_accept_and_shown_that_session(world, serve, open_dashboard):
    """The same agent on a laptop and a tablet: a session accepted on the laptop is, on the
    tablet, the reason its card there cannot be accepted; the tablet says so in words, shows that
    session and the status the server set, and the next waiting session is offered to the agent
    once that session ends. (An agent is offered one session at a time, the oldest: the tablet's
    stale card is the one it tries.)"""
    drive_through = factories.KioskFactory(business=world.business, name="Drive-through", location="")
    server = serve()
    laptop, tablet = open_dashboard(server), open_dashboard(server, viewport=(1024, 520))
    for page in (laptop, tablet):
        sign_in_and_go_available(page, world.agents[0])
        expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    first = server.start_session(drive_through)
    second = server.start_session(world.kiosk)
    for page in (laptop, tablet):
        expect(card(page, first)).to_be_visible()
        expect(card(page, first).locator(".location")).to_have_text("")  # a null location, not "null"
        expect(card(page, second)).to_have_count(0)  # one offer at a time, the oldest session

    card(laptop, first).locator("button.accept").click()
    expect(laptop.locator("#session-title")).to_have_text("Session with Drive-through")
    expect(laptop.locator("#agent-status")).to_have_attribute("data-status", "busy")

    expect(tablet.locator("#agent-status")).to_have_attribute("data-status", "available")  # nobody told it yet
    card(tablet, first).locator("button.accept").click()
    expect(tablet.locator("#alert")).to_have_text(
        "You already have a session in progress: finish it before accepting another."
    )
    expect(tablet.locator("#session-title")).to_have_text("Session with Drive-through")
    expect(tablet.locator("#agent-status")).to_have_attribute("data-status", "busy")
    tablet.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # a long session view
    assert tablet.evaluate("window.scrollY") > 0
    expect(tablet.locator("#agent-status")).to_be_in_viewport()  # the status stays in sight
    status = server.kiosk_call(world.kiosk, "GET", f"/sessions/{second}/status").json()
    assert (status["status"], status["agent"]) == ("pending", None)

    # Ended on the tablet: the words go, the server's status comes back, the waiting session is
    # offered at once.
    tablet.select_option("#end-reason", "technical_issue")
    tablet.click("#end-session")
    expect(tablet.locator("#session-result")).to_contain_text("Session failed after")
    expect(tablet.locator("#alert")).to_be_hidden()
    expect(tablet.locator("#agent-status")).to_have_attribute("data-status", "available")
    expect(card(tablet, second)).to_be_visible()
    expect(card(tablet, first)).to_have_count(0)
    for page in (laptop, tablet):
        assert_no_console_errors(page)


COUNT_TONES = """
window.__tones = 0;
const createOscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__tones += 1; return createOscillator.call(this); };
"""


def test_a_card_rings_unless_muted_and_goes_away_when_the_kiosk_withdraws(world, serve, open_dashboard):
    server = serve()
    page = open_dashboard(server, before=lambda page: page.add_init_script(COUNT_TONES))
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


# Notes, by the page's own clock, when each card first shows and whether the socket was live then.
# The 3 s deadline is then measured where the card appears, not when a retrying assertion of
# Playwright's next looks (its checks space out to 1 s, and a loaded machine delays them more).
RECORD_CARD_ARRIVALS = """
window.__arrivals = {};
new MutationObserver(() => {
  for (const node of document.querySelectorAll("#incoming li[data-session-id]")) {
    if (node.dataset.sessionId in window.__arrivals) continue;
    const live = document.querySelector("#live-state").dataset.state;
    window.__arrivals[node.dataset.sessionId] = { at: Date.now(), live };
  }
}).observe(document, { childList: true, subtree: true });
"""


def poll_timeline(page, since: float) -> list:
    """When each poll of the queue was asked and answered, in seconds after `since`: what a
    failure needs to tell a slow server from a poll that never came."""
    return page.evaluate(
        """(since) => performance.getEntriesByType("resource")
          .filter((entry) => entry.name.includes("/api/sessions/incoming"))
          .map((entry) => [entry.startTime, entry.responseEnd]
            .map((t) => ((performance.timeOrigin + t) / 1000 - since).toFixed(2)))""",
        since,
    )


def test_socket_blocked_polling_shows_a_new_session_within_3_s_until_the_socket_is_back(world, serve, open_dashboard):
    server = serve()
    blocked = True

    def socket(ws):  # while blocked, closed as soon as it opens, like a proxy refusing WebSockets
        if blocked:
            ws.close()
        else:
            ws.connect_to_server()

    def before(page):
        page.add_init_script(RECORD_CARD_ARRIVALS)
        page.route_web_socket(re.compile(r"/app/"), socket)
        page.clock.install()  # runs in real time until the test runs it forward

    page = open_dashboard(server, before=before)
    sign_in_and_go_available(page, world.agents[0])
    expect(page.locator("#live-state")).to_have_attribute("data-state", "polling")
    expect(page.locator("#live-state")).to_contain_text("unavailable")

    session_id = server.start_session(world.kiosk)
    created_at = server.kiosk_call(world.kiosk, "GET", f"/sessions/{session_id}/status").json()["created_at"]
    created = datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp()
    try:
        expect(card(page, session_id)).to_be_visible(timeout=15_000)  # the deadline is checked below
    except AssertionError as error:
        raise AssertionError(f"no card; polls: {poll_timeline(page, created)}") from error
    arrival = page.evaluate("(id) => window.__arrivals[id]", session_id)
    # From the moment the server created the session (same machine, same clock) to the card.
    waited = arrival["at"] / 1000 - created
    assert arrival["live"] == "polling", arrival
    assert waited <= 3.0, f"the card came {waited:.2f} s after the session; polls: {poll_timeline(page, created)}"

    # The socket comes back: the dashboard says so and stops polling. It tries the link again on
    # an answered poll, at most every reconnectSeconds (5) by its clock: run forward past that.
    blocked = False
    page.clock.fast_forward(5_000)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected", timeout=30_000)
    polls = []
    page.on("request", lambda request: polls.append(request.url) if "/api/sessions/incoming" in request.url else None)
    # Two poll intervals (pollSeconds 2) and more on the page's clock: a poll timer left running
    # would have fired. A request the page makes after that is reported after any poll's.
    page.clock.run_for(5_000)
    with page.expect_request(re.compile(r"/healthz$")):
        page.evaluate("() => fetch('/healthz')")
    assert len(polls) <= 1, polls  # at most the one read right after subscribing
    assert_no_console_errors(page)
