"""The Queue page, live, in Chromium against the real ASGI server: the page subscribes to the
owner's channel on the real realtime server; a customer who starts waiting appears on the board, and
leaves it when answered, without the page reloading (static/panel/ live-queue.js reloads only the
board, on QueueBoardChanged); the agent's state follows; the waits tick. The panel's CSP holds: no
console errors."""

import re

import pytest
import requests
from playwright.sync_api import expect

from tests import factories
from tests.panel.conftest import sign_in
from tests.support.browser import new_page, screenshot_on_failure

pytestmark = pytest.mark.live


def kiosk_call(server, kiosk, method: str, path: str, body: dict | None = None) -> requests.Response:
    headers = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    return requests.request(method, f"{server.base_url}/api/public{path}", json=body, headers=headers, timeout=10)


def test_the_queue_page_follows_the_line_live(live_app, chromium, request, settings, business):
    # The server checks passwords with its own hashers (the suite's MD5 shortcut is not among them).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    owner_user = factories.PanelUserFactory(owner=business.owner, panel_role="owner")
    kiosk = factories.KioskFactory(business=business, name="Front counter")
    agent = factories.AgentFactory(owner=business.owner, name="Ada Agent", languages=["es"], last_seen_at=None)
    server = live_app(TASK_MODE="thread", SESSION_COOKIE_SECURE="false")
    context, page = new_page(chromium, server.base_url, (1280, 860))
    try:
        sign_in(page, owner_user.email)
        page.goto("/panel/queue")
        expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
        page.evaluate("document.body.dataset.sameDocument = 'yes'")  # a full reload would drop it
        expect(page.locator("#waiting-table tbody")).to_contain_text("Nobody is waiting.")
        expect(page.locator("#agent-states tr[data-state='offline']")).to_contain_text("Ada Agent")

        start = {"device_id": str(kiosk.device_id), "customer_locale": "es-MX"}
        started = kiosk_call(server, kiosk, "POST", "/sessions/start", start)
        assert started.status_code == 201, started.text
        session_id = started.json()["session_id"]
        row = page.locator(f"#waiting-table tr[data-session-id='{session_id}']")
        expect(row).to_contain_text("Front counter")
        expect(row).to_contain_text("es")
        first = int(row.locator(".ticking").get_attribute("data-seconds"))
        expect(row.locator(".ticking")).not_to_have_attribute("data-seconds", str(first))  # the wait ticks

        # The agent signs in and is offered the customer, then answers: the board follows each step.
        agent_api = requests.Session()
        agent_api.get(f"{server.base_url}/api/csrf-cookie", timeout=10)
        xsrf = {"X-XSRF-TOKEN": agent_api.cookies.get("XSRF-TOKEN")}
        login = {"email": agent.email, "password": factories.PASSWORD}
        assert agent_api.post(f"{server.base_url}/api/login", json=login, headers=xsrf, timeout=10).status_code == 200
        xsrf = {"X-XSRF-TOKEN": agent_api.cookies.get("XSRF-TOKEN")}
        went = agent_api.post(
            f"{server.base_url}/api/agent/status", json={"status": "available"}, headers=xsrf, timeout=10
        )
        assert went.status_code == 200, went.text
        agent_api.get(f"{server.base_url}/api/sessions/incoming", timeout=10)  # polled: signed in
        expect(page.locator("#agent-states tr[data-state='offered']")).to_contain_text("Ada Agent")
        accepted = agent_api.post(f"{server.base_url}/api/sessions/{session_id}/accept", headers=xsrf, timeout=10)
        assert accepted.status_code == 200, accepted.text
        expect(row).to_have_count(0)
        serving = page.locator("#agent-states tr[data-state='serving']")
        expect(serving).to_contain_text("Ada Agent")
        expect(serving.locator(".ticking")).to_have_text(re.compile(r"^\d+ s$"))
        expect(page.locator("#queue-today")).to_contain_text("Today: 1 session")
        assert page.evaluate("document.body.dataset.sameDocument") == "yes"
        page.console_errors.assert_none()
    finally:
        screenshot_on_failure(request, page)
        context.close()
