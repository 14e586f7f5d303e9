"""The kiosk app's session without a WebSocket and its endings (issue 16): with the WebSocket
blocked the kiosk says so, polls, and learns of the accept within 3 s, then sees the agent's cart
and the agent's end (a polite message, then the attract screen); cancelling while waiting goes
back to attract; unpairing the kiosk in the owner panel sends the app back to pairing."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.panel.conftest import sign_in as panel_sign_in

pytestmark = pytest.mark.live


def block_socket(page):
    page.route_web_socket(re.compile(r"/app/"), lambda ws: ws.close())  # a proxy refusing WebSockets


def waiting_session(agent_http, server) -> str:
    incoming = agent_http.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"]
    assert len(incoming) == 1, incoming
    return incoming[0]["id"]


def test_socket_blocked_the_kiosk_polls_and_learns_of_the_accept_within_3_s(world, kiosk, serve, open_page):
    server = serve()
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

    accepted = agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10)
    assert accepted.status_code == 200, accepted.text
    started = time.monotonic()
    expect(page.locator("body")).to_have_attribute("data-screen", "session", timeout=3_000)
    assert time.monotonic() - started <= 3.0
    expect(page.locator("#agent-name")).to_have_text("Ada Agent")

    lines = [{"menu_item_id": str(world.items["fries"].pk), "quantity": 2, "notes": "no salt"}]
    posted = agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10)
    assert posted.status_code in (200, 201), posted.text
    line = page.locator("#cart-lines li")
    expect(line).to_have_count(1, timeout=3_000)
    expect(line.locator(".name")).to_have_text("Fries")
    expect(line.locator(".quantity")).to_have_text("2 ×")
    expect(line.locator(".notes")).to_have_text("no salt")
    expect(page.locator("#cart-total")).to_have_text("$" + f"{posted.json()['total_cents'] / 100:.2f}")
    expect(page.locator("#video")).to_have_attribute("data-state", "unavailable", timeout=30_000)
    expect(page.locator("#video-state")).to_contain_text("Video unavailable:")

    ended = agent.post(
        f"{server.url}/api/sessions/{session_id}/end", json={"reason": "technical_issue", "notes": ""}, timeout=10
    )
    assert ended.status_code == 200, ended.text
    expect(page.locator("body")).to_have_attribute("data-screen", "ended", timeout=3_000)
    expect(page.locator("#ended-title")).to_have_text("Sorry, something went wrong")
    expect(page.locator("body")).to_have_attribute("data-screen", "attract", timeout=5_000)
    expect(page.locator("button.language[data-locale='en-US']")).to_have_attribute("aria-pressed", "true")
    assert_no_console_errors(page)


def test_cancel_while_waiting_returns_to_attract_and_the_agent_sees_it_go(world, kiosk, serve, open_page):
    server = serve()
    agent = server.agent(world.agent.email)
    page = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(page.locator("body")).to_have_attribute("data-realtime", "live")
    page.click("#start")
    expect(page.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = waiting_session(agent, server)
    page.click("#cancel-waiting")
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    status = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/status").json()
    assert (status["status"], status["end_reason"]) == ("abandoned", "kiosk_cancelled")
    assert agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"] == []
    assert_no_console_errors(page)


def test_unpairing_in_the_panel_sends_the_kiosk_app_back_to_pairing(world, kiosk, serve, open_page):
    server = serve()
    page = open_page("/kiosk/?heartbeatSeconds=1", server, before=as_paired(kiosk))
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    expect(page.locator("#business-name")).to_have_text("Burger Barn")

    panel = open_page("/panel/login", server)
    panel.on("dialog", lambda dialog: dialog.accept())  # "Unpair this kiosk?"
    panel_sign_in(panel, world.owner_user.email)
    panel.click("nav >> text=Kiosks")
    panel.locator("#kiosk-table tr", has_text="Front counter").locator("button", has_text="Unpair").click()
    expect(panel.locator(".messages")).to_contain_text("unpaired")

    expect(page.locator("body")).to_have_attribute("data-screen", "pairing", timeout=5_000)
    expect(page.locator("#pairing-reason")).to_contain_text("no longer paired")
    stored = page.evaluate("JSON.parse(window.localStorage.getItem('kiosk-app.device'))")
    assert stored == {"deviceId": str(kiosk.device_id)}  # the token is gone, the device id stays
    assert_no_console_errors(page)
