"""The self-hosted provider end to end, after `make run`'s defaults (VIDEO_PROVIDER webrtc, no
STUN/TURN: a LAN): a kiosk tablet and an agent dashboard, each with Chromium's fake camera and
microphone, see each other's video (the remote element's videoWidth above zero, its frames
advancing) and receive each other's audio (inbound-rtp in getStats); the agent's mute and
camera-off reach the kiosk; the kiosk's hang-up (the session ends) reaches the agent."""

import time

import pytest
from playwright.sync_api import expect

from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors

pytestmark = [pytest.mark.live, pytest.mark.timeout(600)]  # two live videos on a 2-core CI machine

REMOTE_FRAMES = """() => {
  const video = document.querySelector('#remote-video video');
  return video ? {width: video.videoWidth, frames: video.getVideoPlaybackQuality().totalVideoFrames} : null;
}"""

INBOUND_AUDIO = """async () => {
  const peer = document.getElementById('video').videoCall.peer;
  if (!peer || !peer.pc) return null;
  const stats = [...(await peer.pc.getStats()).values()];
  const audio = stats.find((s) => s.type === 'inbound-rtp' && s.kind === 'audio');
  return audio ? {bytes: audio.bytesReceived, energy: audio.totalAudioEnergy || 0} : null;
}"""


def start_call(world, kiosk, serve, open_call_page, *, kiosk_media=True, **env: str):
    server = serve(**env)
    tablet = open_call_page("/kiosk/", server, before=as_paired(kiosk), media=kiosk_media)
    dashboard = open_call_page("/agent/", server, viewport=(1280, 860))
    return (server, tablet, dashboard, begin_session(world, tablet, dashboard))


def begin_session(world, tablet, dashboard) -> str:
    """The customer starts, the agent accepts: the session's id."""
    sign_in_and_go_available(dashboard, world.agent)
    tablet.click("#start")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    session_id = incoming.get_attribute("data-session-id")
    card(dashboard, session_id).locator("button.accept").click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    return session_id


def poll(page, script: str, check, timeout: float) -> None:
    """Evaluate `script` until `check(result)` holds. Not wait_for_function: that compiles its
    predicate with eval inside the page, which the apps' CSP refuses (page.evaluate is not bound)."""
    deadline = time.monotonic() + timeout
    while not check(result := page.evaluate(script)):
        assert time.monotonic() < deadline, f"still {result!r} after {timeout} s"
        page.wait_for_timeout(200)


def assert_sees_moving_video_and_hears_audio(page):
    poll(page, REMOTE_FRAMES, lambda video: video and video["width"] > 0, 60)
    first = page.evaluate(REMOTE_FRAMES)
    poll(page, REMOTE_FRAMES, lambda video: video["frames"] > first["frames"] + 10, 30)
    poll(page, INBOUND_AUDIO, lambda audio: audio and audio["bytes"] > 0 and audio["energy"] > 0, 30)


def test_kiosk_and_agent_see_and_hear_each_other_and_mute_reaches_the_other_side(world, kiosk, serve, open_call_page):
    server, tablet, dashboard, session_id = start_call(world, kiosk, serve, open_call_page)
    expect(dashboard.locator("#video")).to_have_attribute("data-state", "connected", timeout=60_000)
    expect(tablet.locator("#video")).to_have_attribute("data-state", "connected", timeout=60_000)
    expect(tablet.locator("#video-state")).to_have_text("Video connected")
    expect(dashboard.locator("#video-state")).to_have_text("Video connected")
    assert_sees_moving_video_and_hears_audio(tablet)
    assert_sees_moving_video_and_hears_audio(dashboard)
    local = tablet.locator("#local-video video")
    expect(local).to_have_js_property("muted", True)  # no echo of one's own microphone

    dashboard.click("#toggle-mic", timeout=30_000)  # two live videos on a small CI machine: slow to answer
    expect(dashboard.locator("#toggle-mic")).to_have_attribute("aria-pressed", "true")
    expect(dashboard.locator("#toggle-mic")).to_have_text("Unmute microphone")
    expect(tablet.locator("#video")).to_have_attribute("data-remote-audio", "off")
    expect(tablet.locator("#video-state")).to_have_text("Video connected. The agent's microphone is off.")
    dashboard.click("#toggle-camera", timeout=30_000)
    expect(tablet.locator("#video")).to_have_attribute("data-remote-video", "off")
    expect(tablet.locator("#video-state")).to_contain_text("The agent's camera is off.")
    dashboard.click("#toggle-mic", timeout=30_000)
    expect(tablet.locator("#video")).to_have_attribute("data-remote-audio", "on")
    expect(tablet.locator("#video-state")).to_have_text("Video connected. The agent's camera is off.")

    # The customer leaves: the kiosk hangs up and the agent's call stops at once; closing the call's
    # own link after the hang-up leaves no send on a closed socket ("WebSocket is already in
    # CLOSING or CLOSED state") on either page.
    tablet.click("#leave-session", timeout=30_000)  # nothing ordered yet: no confirmation asked
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    expect(dashboard.locator("#remote-video video")).to_have_count(0, timeout=10_000)
    expect(dashboard.locator("#video")).to_have_attribute("data-state", "idle", timeout=15_000)  # its link closed
    tablet.wait_for_timeout(500)  # the deferred frames of both closes
    for page in (tablet, dashboard):
        assert not [error for error in page.console_errors if "CLOSING or CLOSED" in error], page.console_errors
        assert_no_console_errors(page)
