"""The video pane: the vendored provider SDK is loaded from our own static files (never a CDN),
joins with a publisher token from GET /api/video/token, cannot reach the provider here (no
internet) and says "video unavailable" with the reason while the cart keeps working; the token
is refreshed through POST /api/video/token/refresh before it expires (an 8 s lifetime here)."""

import json
import re
import time
from datetime import datetime

import pytest
from playwright.sync_api import expect

from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available

pytestmark = pytest.mark.live
TOKEN_TTL = 8


def test_video_is_unavailable_offline_and_its_token_is_refreshed_before_expiry(world, serve, open_dashboard):
    server = serve(VIDEO_PROVIDER="agora", VIDEO_TOKEN_TTL_SECONDS=str(TOKEN_TTL))
    page = open_dashboard(server)
    video_calls = []
    page.on(
        "request",
        lambda request: (
            video_calls.append((time.time(), request.method, request.url, request.post_data))
            if "/api/video/token" in request.url
            else None
        ),
    )
    tokens = []
    page.on(
        "response",
        lambda response: (
            tokens.append((time.time(), response.json()))
            if "/api/video/token" in response.url and response.ok
            else None
        ),
    )
    sign_in_and_go_available(page, world.agents[0])
    session_id = server.start_session(world.kiosk)
    card(page, session_id).locator("button.accept").click()

    expect(page.locator("#video")).to_have_attribute("data-state", "unavailable", timeout=30_000)
    expect(page.locator("#video-state")).to_contain_text("Video unavailable:")
    expect(page.locator("#video-state")).to_contain_text("The rest of the session works")
    assert page.evaluate("typeof window.AgoraRTC") == "object"
    sdk = [r for r in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)") if "Agora" in r]
    assert sdk and all(url.startswith(server.url + "/static/vendor/agora-rtc-sdk-ng/") for url in sdk), sdk

    # The cart does not wait for the video.
    page.click("button.menu-item:has-text('Fries')")
    expect(page.locator("#cart-total")).to_have_text("$3.26")

    expect(page.locator("#video")).to_have_attribute("data-refreshed-at", re.compile(".+"), timeout=TOKEN_TTL * 1000)
    first_get = next(call for call in video_calls if call[1] == "GET")
    assert f"channel={session_id}" in first_get[2] and "role=publisher" in first_get[2]
    refresh = next(call for call in video_calls if call[1] == "POST")
    assert refresh[2].endswith("/api/video/token/refresh")
    assert json.loads(refresh[3]) == {"channel": session_id, "role": "publisher"}
    received_at, first_token = tokens[0]
    expires_at = datetime.fromisoformat(first_token["expires_at"].replace("Z", "+00:00")).timestamp()
    assert received_at + TOKEN_TTL - 5 <= expires_at <= received_at + TOKEN_TTL + 1  # the short lifetime
    assert refresh[0] < expires_at, "the token was refreshed only after it expired"
    assert_no_console_errors(page)
