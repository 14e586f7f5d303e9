"""The kiosk app's session without a WebSocket and its endings: with the WebSocket blocked the kiosk
says so, polls, and learns of the accept within 3 s, then sees the agent's cart (the video
unavailable, its token refreshed before expiry) and the agent's end (a polite message, then the
attract screen); cancelling while waiting goes back to attract; "are you still there?" after the
inactivity timeout (cancelling when nobody answers) and the pending timeout said in words; a lost
network shows a banner until it is back; the owner's new attract message and colour show without
pairing again; unpairing the kiosk in the owner panel sends the app back to pairing."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import as_paired, assert_no_console_errors, block_socket
from tests.panel.conftest import sign_in as panel_sign_in

pytestmark = pytest.mark.live


def waiting_session(agent_http, server) -> str:
    incoming = agent_http.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"]
    assert len(incoming) == 1, incoming
    return incoming[0]["id"]


def test_socket_blocked_the_kiosk_polls_and_learns_of_the_accept_within_3_s(world, kiosk, serve, open_page):
    server = serve(
        VIDEO_PROVIDER="agora", VIDEO_TOKEN_TTL_SECONDS="4"
    )  # the video token is refreshed before it expires (3 s after it was given)
    agent = server.agent(world.agent.email)

    def before(page):
        as_paired(kiosk)(page)
        block_socket(page)

    page = open_page("/kiosk/?endedSeconds=2", server, before=before)
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    expect(page.locator("body")).to_have_attribute("data-realtime", "polling")
    page.click("button.language[data-locale='es-ES']")
    page.click("#start")
    expect(page.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = waiting_session(agent, server)
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert status["status"] == "pending"

    polls = []  # the status reads the page sent, with the page's own clock (server time left out)
    page.on("requestfinished", lambda request: "/status" in request.url and polls.append(request))
    asked_at_ms = time.time() * 1000
    accepted = agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10)
    assert accepted.status_code == 200, accepted.text
    accepted_at_ms = time.time() * 1000
    expect(page.locator("body")).to_have_attribute("data-screen", "session")
    expect(page.locator("#agent-name")).to_have_text("Ada Agent")
    # It learnt of the accept from its poll, which runs every 2 s (spec rule 1): the first poll
    # answered "active" was sent within 2 s of the accept, timer slack aside (on a loaded machine
    # it can be one sent while the accept was being answered, never one sent before it was asked).
    # How long the server took to answer it is the benchmarks' to measure, not this test's.
    told = sorted(request.timing["startTime"] for request in polls if request.response().json()["status"] == "active")
    assert told and asked_at_ms <= told[0] <= accepted_at_ms + 2_500, (told, asked_at_ms, accepted_at_ms)

    lines = [{"menu_item_id": str(world.items["fries"].pk), "quantity": 2, "notes": "no salt"}]
    posted = agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10)
    assert posted.status_code in (200, 201), posted.text
    line = page.locator("#cart-lines li")
    expect(line).to_have_count(1, timeout=3_000)
    expect(line.locator(".name")).to_have_text("Fries")
    expect(line.locator(".quantity")).to_have_text("2 ×")
    expect(line.locator(".notes")).to_have_text("no salt")
    total = f"{posted.json()['total_cents'] / 100:.2f}".replace(".", ",")
    expect(page.locator("#cart-total")).to_have_text(f"{total}\u00a0US$")  # Spanish chosen: es-ES formatting
    expect(page.locator("#video")).to_have_attribute("data-state", "unavailable", timeout=30_000)
    expect(page.locator("#video-state")).to_contain_text("Vídeo no disponible:")  # in the chosen Spanish
    expect(page.locator("#video")).to_have_attribute("data-refreshed-at", re.compile(r"^\d{4}-"), timeout=15_000)

    ended = agent.post(
        f"{server.url}/api/sessions/{session_id}/end", json={"reason": "technical_issue", "notes": ""}, timeout=10
    )
    assert ended.status_code == 200, ended.text
    expect(page.locator("body")).to_have_attribute("data-screen", "ended", timeout=3_000)
    expect(page.locator("#ended-title")).to_have_text("Lo sentimos, algo ha fallado")
    expect(page.locator("body")).to_have_attribute("data-screen", "attract", timeout=5_000)
    expect(page.locator("button.language[data-locale='en-US']")).to_have_attribute("aria-pressed", "true")
    assert_no_console_errors(page)


def test_network_loss_an_owners_change_then_unpairing_sends_the_kiosk_app_back_to_pairing(
    world, kiosk, serve, open_page
):
    server = serve()
    page = open_page("/kiosk/?heartbeatSeconds=1", server, before=as_paired(kiosk))
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    expect(page.locator("#business-name")).to_have_text("Burger Barn")

    # The network goes: a banner, retries with back-off; it comes back: the banner goes.
    page.context.set_offline(True)
    expect(page.locator("#network-banner")).to_be_visible(timeout=5_000)
    expect(page.locator("#network-banner")).to_contain_text("Connection lost. Trying again in")
    page.context.set_offline(False)
    expect(page.locator("#network-banner")).to_be_hidden(timeout=10_000)
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    offline_errors = [e for e in page.console_errors if "ERR_INTERNET_DISCONNECTED" in e]
    assert offline_errors  # the browser's own log of the failed calls, and only while offline
    page.console_errors[:] = [e for e in page.console_errors if e not in offline_errors]

    panel = open_page("/panel/login", server)
    panel.on("dialog", lambda dialog: dialog.accept())  # "Unpair this kiosk?"
    panel_sign_in(panel, world.owner_user.email)

    # The owner changes the kiosk's message and colour: the attract screen follows, unpaired.
    panel.goto("/panel/settings")
    panel.fill(
        "#settings-form textarea[name=attract_message], #settings-form input[name=attract_message]", "Breakfast all day"
    )
    panel.locator("#settings-form input[name=primary_color]").evaluate("(input) => { input.value = '#0e7490'; }")
    panel.click("#settings-form button[type=submit]")
    expect(page.locator("#attract-message")).to_have_text("Breakfast all day", timeout=5_000)
    brand = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--brand').trim()")
    assert brand.lower() == "#0e7490"

    panel.click("nav >> text=Kiosks")
    panel.locator("#kiosk-table tr", has_text="Front counter").locator("button", has_text="Unpair").click()
    expect(panel.locator(".messages")).to_contain_text("unpaired")

    expect(page.locator("body")).to_have_attribute("data-screen", "pairing", timeout=5_000)
    expect(page.locator("#pairing-reason")).to_contain_text("no longer paired")
    stored = page.evaluate("JSON.parse(window.localStorage.getItem('kiosk-app.device'))")
    assert stored == {"deviceId": str(kiosk.device_id)}  # the token is gone, the device id stays
    assert_no_console_errors(page)


def test_inactivity_asks_are_you_still_there_and_the_pending_timeout_is_said_in_words(world, kiosk, serve, open_page):
    # The embedded beat runs the pending-timeout sweep every second on sessions older than 10 s;
    # the kiosk warns 3 s before that timeout. The kiosk's own inactivity cancel (5 s untouched)
    # comes well before the server's: the two do not race.
    server = serve(TASK_MODE="thread", SESSION_PENDING_TIMEOUT="10", SESSION_ABANDON_SWEEP_SECONDS="1")
    page = open_page(
        "/kiosk/?inactivitySeconds=2&stillThereSeconds=3&warningSeconds=3", server, before=as_paired(kiosk)
    )
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")

    page.click("#start")  # then nobody touches the screen: asked, then cancelled
    expect(page.locator("body")).to_have_attribute("data-screen", "waiting")
    expect(page.locator("#still-there")).to_be_visible(timeout=5_000)
    expect(page.locator("#still-there-count")).to_contain_text("Your session ends in")
    expect(page.locator("body")).to_have_attribute("data-screen", "attract", timeout=6_000)
    expect(page.locator("#still-there")).to_be_hidden()

    page.click("#start")  # this customer is still there, but nobody answers
    expect(page.locator("body")).to_have_attribute("data-screen", "waiting")
    expect(page.locator("#still-there")).to_be_visible(timeout=5_000)
    page.click("#still-there-yes")
    expect(page.locator("#still-there")).to_be_hidden()
    # Touches keep the kiosk's inactivity away, but the server's own timeout is warned of, and
    # nobody answers that warning (a key or the button would extend it).
    page.evaluate("setInterval(() => document.dispatchEvent(new Event('pointerdown')), 1000)")
    expect(page.locator("#still-there")).to_be_visible(timeout=10_000)
    expect(page.locator("body")).to_have_attribute("data-screen", "ended", timeout=30_000)
    expect(page.locator("#screen-ended")).to_have_attribute("data-reason", "timed_out")
    expect(page.locator("#ended-title")).to_have_text("Sorry, nobody could answer")
    expect(page.locator("#ended-message")).to_have_text(
        "All our team members are busy right now. Please try again in a few minutes."
    )
    assert_no_console_errors(page)


def test_the_kiosk_app_joins_its_owners_presence_channel_and_cancelling_while_waiting_returns_to_attract(
    world, kiosk, serve, open_page
):
    """The owner's dashboard sees the kiosk come and go live: presence membership, not heartbeats
    (a closed kiosk would stay "online" for 90 s by heartbeat alone). Meanwhile a customer cancels
    while waiting: back to attract, and the agent sees the session go."""
    server = serve()  # daphne: the dashboard follows the presence channel
    agent = server.agent(world.agent.email)
    panel = open_page("/panel/login", server)
    panel_sign_in(panel, world.owner_user.email)
    expect(panel.locator("#live-state")).to_have_attribute("data-subscribed", "true")
    status = panel.locator(f"#live-kiosks tr[data-kiosk-id='{kiosk.pk}'] .kiosk-status")

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-realtime", "live")
    expect(status).to_have_attribute("data-online", "true")

    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = waiting_session(agent, server)
    tablet.click("#cancel-waiting")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    status_read = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert (status_read["status"], status_read["end_reason"]) == ("abandoned", "kiosk_cancelled")
    assert agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"] == []
    assert_no_console_errors(tablet)

    tablet.close()  # the tablet goes away: its WebSocket closes and it leaves the channel
    expect(status).to_have_attribute("data-online", "false")
    assert_no_console_errors(panel)
