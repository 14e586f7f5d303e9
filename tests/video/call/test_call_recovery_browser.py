"""A dropped network heals by itself: the kiosk tablet is behind a cable the test pulls
(tests/support/cable.py: the tablet and the agent's dashboard in network namespaces of their own
on its two ends, so the WebRTC media is cut, not only the WebSockets). With the call live, the
cable is out until the agent's side has sent its ICE-restart offer (unanswered: the kiosk is cut
off): both sides say they are reconnecting; once it is back, ICE
restarts (VIDEO_ICE_RESTART_SECONDS, shortened here) and both say the video is connected again
with the remote frames advancing, nobody having touched a thing.
While the cable is out the pages may log only that the network failed."""

import re

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.video.call.test_webrtc_call_browser import REMOTE_FRAMES, begin_session, poll

pytestmark = [pytest.mark.live, pytest.mark.timeout(600)]

# What a page may log while its network is gone, and nothing else.
NETWORK_DOWN = r"net::ERR_|WebSocket connection to .* failed"
CALL_ID = "() => document.getElementById('video').videoCall.peer.callId"
RESTART_OFFER_STATE = "() => document.getElementById('video').videoCall.peer.pc.signalingState"


def assert_frames_advance(page, timeout: float = 60) -> None:
    poll(page, REMOTE_FRAMES, lambda video: video and video["width"] > 0, timeout)
    first = page.evaluate(REMOTE_FRAMES)
    poll(page, REMOTE_FRAMES, lambda video: video["frames"] > first["frames"] + 10, timeout)


def test_a_dropped_network_restarts_ice_and_the_call_recovers(world, kiosk, serve, kiosk_behind_cable, request):
    server = serve(VIDEO_ICE_RESTART_SECONDS="1", ALLOWED_HOSTS=kiosk_behind_cable.allowed_hosts)
    tablet = kiosk_behind_cable.open_kiosk(server, request, before=as_paired(kiosk))
    dashboard = kiosk_behind_cable.open_dashboard(server, "/agent/")
    begin_session(world, tablet, dashboard)
    for page in (tablet, dashboard):
        expect(page.locator("#video")).to_have_attribute("data-state", "connected", timeout=60_000)
    assert_frames_advance(dashboard)
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
    logged = {page: len(page.console_errors) for page in (tablet, dashboard)}
    call = dashboard.evaluate(CALL_ID)

    kiosk_behind_cable.pull()
    expect(tablet.locator("#video")).to_have_attribute("data-state", "reconnecting", timeout=30_000)
    expect(tablet.locator("#video-state")).to_have_text("Reconnecting video…")
    expect(dashboard.locator("#video")).to_have_attribute("data-state", "reconnecting", timeout=30_000)
    expect(dashboard.locator("#video-state")).to_have_text("Reconnecting video…")
    # Still without a network, the agent's side (the offerer) restarts ICE on its own: once the
    # connection has been "disconnected" for VIDEO_ICE_RESTART_SECONDS its timer sends an offer
    # with iceRestart, which cannot reach the kiosk and stays unanswered. Plugged back in after
    # that, the pending offer is sent again as it was (static/common/webrtc-call.js restartIce).
    poll(dashboard, RESTART_OFFER_STATE, lambda state: state == "have-local-offer", 30)
    kiosk_behind_cable.plug()

    for page in (tablet, dashboard):
        expect(page.locator("#video")).to_have_attribute("data-state", "connected", timeout=60_000)
        expect(page.locator("#video-state")).to_have_text("Video connected")
    assert_frames_advance(dashboard)  # the kiosk's camera, again
    assert_frames_advance(tablet)  # and the agent's
    assert dashboard.evaluate(CALL_ID) == tablet.evaluate(CALL_ID) == call  # healed (ICE restart), not redialled
    for page in (tablet, dashboard):
        outage, rest = page.console_errors[logged[page] :], page.console_errors[: logged[page]]
        page.console_errors[:] = rest  # checked below as before; the outage's own may only be network errors
        assert_no_console_errors(page)
        unexpected = [error for error in outage if not re.search(NETWORK_DOWN, error)]
        assert unexpected == [], unexpected
