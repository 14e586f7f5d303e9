"""End to end: the dashboard in Chromium on the worker's shared daphne (tests/support/live.py),
subscribed to the owner's presence channel on the real realtime server. A kiosk that comes back
online shows as online without a reload."""

import pytest
import requests
from playwright.sync_api import expect

from tests import factories
from tests.support.browser import ARTIFACTS
from tests.support.live import SERVER_CHECKED_HASHERS

pytestmark = pytest.mark.live


def test_dashboard_shows_a_kiosk_coming_online_live(chromium, live_db, shared_live_server, settings):
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS  # the server checks the panel user's password
    business = factories.BusinessFactory(name="Burger Barn")
    owner = factories.PanelUserFactory(owner=business.owner, name="Olive Owner")
    kiosk = factories.KioskFactory(business=business, name="Front counter", online=False)
    url = shared_live_server.base_url
    context = chromium.new_context(base_url=url)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        page.goto("/panel/login")
        page.fill("input[name=email]", owner.email)
        page.fill("input[name=password]", factories.PASSWORD)
        page.click("button[type=submit]")
        expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
        expect(page.locator("#live-state")).to_have_attribute("data-subscribed", "true", timeout=15_000)
        status = page.locator(f"#live-kiosks tr[data-kiosk-id='{kiosk.pk}'] .kiosk-status")
        expect(status).to_have_attribute("data-online", "false")

        heartbeat = requests.post(
            f"{url}/api/public/kiosks/heartbeat",
            headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token},
            timeout=10,
        )
        assert heartbeat.status_code in (200, 204), heartbeat.text
        expect(status).to_have_attribute("data-online", "true", timeout=15_000)
        expect(status).to_contain_text("online")
        assert errors == []
    except Exception:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "realtime_e2e.png"), full_page=True)
        raise
    finally:
        context.close()
