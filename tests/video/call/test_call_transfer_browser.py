"""A transferred call renegotiates with the new agent: the kiosk and Ann are in a live call; Ann
hands the session to Bea, who accepts; Bea's dashboard then sees the kiosk's camera (frames
advancing) and the kiosk Bea's, while Ann's call has ended (no remote video, the pane idle). The
server has dropped Ann from the call channel (tests/video/test_call_signalling_live.py checks that
over the wire); no page logs an error, Ann's included (it does not ask to be signed again)."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.video.call.test_call_recovery_browser import assert_frames_advance
from tests.video.call.test_webrtc_call_browser import begin_session

pytestmark = [pytest.mark.live, pytest.mark.timeout(600)]


def test_the_kiosks_call_moves_to_the_agent_who_takes_the_transfer(world, kiosk, serve, open_call_page):
    bea = factories.AgentFactory(owner=world.business.owner, name="Bea Agent", agent_status="offline", languages=["es"])
    server = serve(TASK_MODE="thread")
    tablet = open_call_page("/kiosk/", server, before=as_paired(kiosk))
    ann = open_call_page("/agent/", server, viewport=(1280, 860))
    session_id = begin_session(world, tablet, ann)
    expect(ann.locator("#video")).to_have_attribute("data-state", "connected", timeout=60_000)
    bea_page = open_call_page("/agent/", server, viewport=(1280, 860))
    sign_in_and_go_available(bea_page, bea)

    ann.click("#transfer-refresh")
    expect(ann.locator("#transfer-to optgroup[label='Colleagues'] option")).to_have_text(["Bea Agent (es)"])
    ann.select_option("#transfer-to", label="Bea Agent (es)")
    ann.click("#transfer-send")
    card(bea_page, session_id).locator("button.accept").click()
    expect(tablet.locator("#agent-name")).to_have_text("Bea Agent")

    expect(ann.locator("#remote-video video")).to_have_count(0, timeout=15_000)
    expect(ann.locator("#video")).to_have_attribute("data-state", "idle")
    for page in (bea_page, tablet):
        expect(page.locator("#video")).to_have_attribute("data-state", "connected", timeout=60_000)
    assert_frames_advance(bea_page)  # the kiosk's camera on the new agent's dashboard
    assert_frames_advance(tablet)  # and Bea's on the kiosk
    for page in (tablet, ann, bea_page):
        assert_no_console_errors(page)
