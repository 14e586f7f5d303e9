"""Offers on the dashboard: the card is the agent's current offer, with the customer's language and
the seconds left to answer. A Spanish customer rings only the Spanish-speaking agent until the
any-language time, then the English-only agent too (its card names the language). A missed offer
goes, on its own, to the next agent; two misses set the agent on break, the dashboard says why in
words and offers the way back to available (told on the agent's channel, or, with the WebSocket
refused, read from GET /api/user after the lapse). The Spanish customer picks Español on the kiosk
app, which shows its place meanwhile. Timings are shortened through the ROUTING_* settings; the
server runs its jobs in-process (TASK_MODE "thread"), so the embedded beat runs the routing tick
that lapses offers and widens the waves."""

import re
from datetime import datetime

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import (
    assert_no_console_errors,
    card,
    refuse_websockets,
    sign_in_and_go_available,
)
from tests.kiosk_app.conftest import assert_no_console_errors as kiosk_console_errors

pytestmark = pytest.mark.live

MISSED_TWO = "You missed 2 customers. Set yourself available when you are back."
ANY_LANGUAGE_AFTER = 3  # s: the routing tick runs every second, so a card before it would show

# Notes, by the page's own clock (ms), when each card first shows on a page already open.
RECORD_CARD_ARRIVALS = """() => {
  window.__arrivals = {};
  const note = () => {
    for (const node of document.querySelectorAll("#incoming li[data-session-id]")) {
      if (!(node.dataset.sessionId in window.__arrivals)) window.__arrivals[node.dataset.sessionId] = Date.now();
    }
  };
  note();
  new MutationObserver(note).observe(document, { childList: true, subtree: true });
}"""


def start_session(server, kiosk, locale: str) -> str:
    body = {"device_id": str(kiosk.device_id), "customer_locale": locale}
    started = server.kiosk_call(kiosk, "POST", "/sessions/start", body)
    assert started.status_code == 201, started.text
    return started.json()["session_id"]


def signed_in_pages(server, open_dashboard, agents, link="live"):
    """A dashboard per agent, signed in and available, in that order (the first idles longest);
    with link "polling" their WebSocket is refused, as by a proxy, and they poll."""
    pages = []
    for agent in agents:
        page = open_dashboard(server, before=refuse_websockets if link == "polling" else None)
        sign_in_and_go_available(page, agent)
        expect(page.locator("#live-state")).to_have_attribute(
            "data-state", "connected" if link == "live" else "polling"
        )
        pages.append(page)
    return pages


def test_a_spanish_customer_rings_only_the_spanish_agent_until_any_language_may_answer(
    world, serve, open_dashboard, open_kiosk
):
    english = world.agents[0]
    english.languages = ["en"]
    english.save(update_fields=["languages"])
    spanish = factories.AgentFactory(
        owner=world.business.owner, name="Sol Agent", agent_status="offline", languages=["es"]
    )
    server = serve(
        TASK_MODE="thread", ROUTING_OFFER_SECONDS="60", ROUTING_ANY_LANGUAGE_AFTER_SECONDS=str(ANY_LANGUAGE_AFTER)
    )
    english_page, spanish_page = signed_in_pages(server, open_dashboard, [english, spanish])
    english_page.evaluate(RECORD_CARD_ARRIVALS)  # when each card first shows, by the page's clock

    kiosk_page = open_kiosk(server, world.kiosk)
    expect(kiosk_page.locator("body")).to_have_attribute("data-screen", "attract")
    kiosk_page.click("button.language[data-locale='es-ES']")  # the customer picks Español
    kiosk_page.click("#start")
    expect(kiosk_page.locator("body")).to_have_attribute("data-screen", "waiting")
    offered = spanish_page.locator("#incoming li")
    expect(offered).to_have_count(1)
    session_id = offered.get_attribute("data-session-id")
    created_at = server.kiosk_call(world.kiosk, "GET", f"/sessions/{session_id}/status").json()["created_at"]
    created = datetime.fromisoformat(created_at.replace("Z", "+00:00")).timestamp()
    expect(offered.locator(".language")).to_have_text("Spanish (Spain)")
    # The kiosk speaks the customer's language while waiting too.
    expect(kiosk_page.locator("#waiting-place")).to_have_text(
        "Eres la siguiente persona · aún no podemos calcular la espera"
    )
    expect(kiosk_page.locator("#waiting-agents")).to_have_text("2 personas del equipo están disponibles.")
    expect(offered.locator(".offer-left")).to_have_text(re.compile(r"^\d+ s to answer$"))
    first = int(offered.locator(".offer-left").inner_text().split()[0])
    assert 50 <= first <= 60, first
    expect(offered.locator(".offer-left")).not_to_have_text(f"{first} s to answer")  # it counts down

    late = card(english_page, session_id)
    expect(late).to_be_visible()  # the any-language time has come: the English-only agent too
    # Nothing before it: the English page's first card of all is this one, shown no sooner than
    # the any-language time after the server created the session (same machine, same clock).
    arrivals = english_page.evaluate("window.__arrivals")
    assert list(arrivals) == [session_id], arrivals
    waited = arrivals[session_id] / 1000 - created
    assert waited >= ANY_LANGUAGE_AFTER, f"the English-only agent was offered the card after {waited:.2f} s"
    expect(late.locator(".language")).to_have_text("Spanish (Spain)")
    late.locator("button.accept").click()
    expect(english_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(card(spanish_page, session_id)).to_have_count(0)  # taken: gone from the other dashboard
    expect(kiosk_page.locator("body")).to_have_attribute("data-screen", "session")
    expect(kiosk_page.locator("#agent-name")).to_have_text(english.name)
    for page in (english_page, spanish_page):
        assert_no_console_errors(page)
    kiosk_console_errors(kiosk_page)


@pytest.mark.parametrize("link", ["live", "polling"])
def test_a_missed_offer_moves_on_and_two_misses_set_the_agent_on_break(world, serve, open_dashboard, link):
    first = world.agents[0]
    second = factories.AgentFactory(owner=world.business.owner, name="Bo Agent", agent_status="offline")
    drive_through = factories.KioskFactory(business=world.business, name="Drive-through", location="")
    server = serve(
        TASK_MODE="thread", ROUTING_OFFER_SIZE="1", ROUTING_OFFER_SECONDS="5", ROUTING_MISSES_BEFORE_BREAK="2"
    )
    first_page, second_page = signed_in_pages(server, open_dashboard, [first, second], link)

    session_id = start_session(server, world.kiosk, "en-US")
    missed = card(first_page, session_id)
    expect(missed).to_be_visible()
    expect(missed.locator(".offer-left")).to_have_text(re.compile(r"^[1-5] s to answer$"))
    expect(card(second_page, session_id)).to_have_count(0)  # one agent at a time
    expect(missed).to_have_count(0, timeout=8_000)  # not answered: the offer lapses
    moved = card(second_page, session_id)
    expect(moved).to_be_visible()  # and moves to the next agent
    expect(first_page.locator("#status-notice")).to_be_hidden()  # one miss is not a break
    moved.locator("button.accept").click()
    expect(second_page.locator("#session-title")).to_have_text("Session with Front counter")

    next_id = start_session(server, drive_through, "en-US")
    expect(card(first_page, next_id)).to_be_visible()  # the only agent free
    expect(card(first_page, next_id)).to_have_count(0, timeout=8_000)
    notice = first_page.locator("#status-notice")
    expect(notice).to_be_visible()
    expect(first_page.locator("#status-notice-text")).to_have_text(MISSED_TWO)
    expect(first_page.locator("#agent-status")).to_have_attribute("data-status", "break")
    expect(first_page.locator("#incoming li")).to_have_count(0)  # on break: not offered

    first_page.click("#back-available")
    expect(first_page.locator("#agent-status")).to_have_attribute("data-status", "available")
    expect(notice).to_be_hidden()
    back = card(first_page, next_id)
    expect(back).to_be_visible()  # offered the waiting customer at once
    back.locator("button.accept").click()
    expect(first_page.locator("#session-title")).to_have_text("Session with Drive-through")
    for page in (first_page, second_page):
        assert_no_console_errors(page)
