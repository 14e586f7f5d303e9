"""After a transfer the kiosk names the new agent everywhere at once, without a reload: beside the
video and in the menu's hint ("Tell ... what you would like"), in the customer's language. The
agents work through the agent API (the transfer's own browser test is
tests/agent_dashboard/test_transfer.py)."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.private_servers import wait_until

pytestmark = pytest.mark.live


def offered_to(agent_http, server) -> list:
    """The sessions offered to the agent: with jobs in a thread, the router offers after the
    request that started (or transferred) the session has answered, so a test waits for it."""
    return agent_http.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"]


def test_after_a_transfer_the_menu_hint_names_the_new_agent(world, kiosk, serve, open_page):
    bea = factories.AgentFactory(owner=world.business.owner, name="Bea Agent", agent_status="offline")
    server = serve(TASK_MODE="thread")
    ann_http = server.agent(world.agent.email)
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("button.language[data-locale='fr-FR']")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = wait_until(lambda: offered_to(ann_http, server), 10, "the offer to Ann")[0]["id"]
    assert ann_http.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
    expect(tablet.locator("#kiosk-menu-hint")).to_have_text(f"Dites à {world.agent.name} ce qui vous ferait plaisir.")

    bea_http = server.agent(bea.email)
    sent = ann_http.post(f"{server.url}/api/sessions/{session_id}/transfer", json={"to_agent_id": bea.pk}, timeout=10)
    assert sent.status_code in (200, 202), sent.text
    wait_until(lambda: offered_to(bea_http, server), 10, "the transfer's offer to Bea")
    taken = bea_http.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10)
    assert taken.status_code == 200, taken.text

    expect(tablet.locator("#agent-name")).to_have_text("Bea Agent")
    expect(tablet.locator("#kiosk-menu-hint")).to_have_text("Dites à Bea Agent ce qui vous ferait plaisir.")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    assert_no_console_errors(tablet)
