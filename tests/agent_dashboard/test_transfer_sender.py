"""The sender's side of a transfer in the browser: Ann offers her customer to Bea, reloads her
dashboard and finds "waiting for Bea" again (from the server's state), then takes the transfer back
with Cancel: Bea's card goes, the customer stays with Ann, said in words. And with Ann's WebSocket
refused, a hand-over she does not hear of is read from her session poll (`handed_over_to`): her
dashboard names Bea, with no error."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import (
    assert_no_console_errors,
    card,
    refuse_websockets,
    sign_in_and_go_available,
)

pytestmark = pytest.mark.live


def test_the_sender_finds_a_pending_transfer_after_a_reload_and_cancels_it(world, serve, open_dashboard):
    ann = world.agents[0]
    bea = factories.AgentFactory(owner=world.business.owner, name="Bea Agent", agent_status="offline", languages=["es"])
    server = serve(TASK_MODE="thread", ROUTING_OFFER_SECONDS="30")
    ann_page = open_dashboard(server)
    sign_in_and_go_available(ann_page, ann)
    session_id = server.start_session(world.kiosk)
    card(ann_page, session_id).locator("button.accept").click()
    expect(ann_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(ann_page.locator("#transfer-cancel")).to_be_hidden()

    bea_page = open_dashboard(server)
    sign_in_and_go_available(bea_page, bea)
    ann_page.click("#transfer-refresh")
    expect(ann_page.locator("#transfer-to optgroup[label='Colleagues'] option")).to_have_text(["Bea Agent (es)"])
    ann_page.select_option("#transfer-to", label="Bea Agent (es)")
    ann_page.click("#transfer-send")
    expect(ann_page.locator("#transfer-state")).to_contain_text("Offered to Bea Agent: waiting for an answer")
    expect(card(bea_page, session_id).locator(".transfer-from")).to_have_text("Transfer from Ada Agent")

    # A reload: the session and the transfer waiting for Bea come back from the server.
    ann_page.reload()
    expect(ann_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(ann_page.locator("#transfer-state")).to_contain_text("Offered to Bea Agent: waiting for an answer")
    expect(ann_page.locator("#transfer-send")).to_be_disabled()
    expect(ann_page.locator("#transfer-cancel")).to_be_visible()

    # Cancel, by keyboard: Bea's card goes, the customer stays with Ann.
    ann_page.focus("#transfer-cancel")
    ann_page.keyboard.press("Enter")
    expect(ann_page.locator("#transfer-state")).to_have_text("Transfer cancelled: the customer stays with you.")
    expect(ann_page.locator("#transfer-cancel")).to_be_hidden()
    expect(ann_page.locator("#transfer-send")).to_be_enabled()
    expect(card(bea_page, session_id)).to_have_count(0)
    expect(bea_page.locator("#agent-status")).to_have_attribute("data-status", "available")
    expect(ann_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(ann_page.locator("#transfer-to optgroup[label='Colleagues'] option")).to_have_text(["Bea Agent (es)"])

    # Another reload: nothing pending any more.
    ann_page.reload()
    expect(ann_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(ann_page.locator("#transfer-cancel")).to_be_hidden()
    expect(ann_page.locator("#transfer-send")).to_be_enabled()
    for page in (ann_page, bea_page):
        assert_no_console_errors(page)


def test_with_the_socket_refused_the_sender_learns_of_the_hand_over_from_its_poll(world, serve, open_dashboard):
    ann = world.agents[0]
    bea = factories.AgentFactory(owner=world.business.owner, name="Bea Agent", agent_status="offline", languages=["es"])
    server = serve(TASK_MODE="thread", ROUTING_OFFER_SECONDS="30")

    def refused_with_a_clock(page):  # a proxy refusing WebSockets; the page's clock, to run it on
        refuse_websockets(page)
        page.clock.install()  # runs in real time until the test runs it forward

    ann_page = open_dashboard(server, before=refused_with_a_clock)
    sign_in_and_go_available(ann_page, ann)
    expect(ann_page.locator("#live-state")).to_have_attribute("data-state", "polling")
    session_id = server.start_session(world.kiosk)
    card(ann_page, session_id).locator("button.accept").click()
    expect(ann_page.locator("#session-title")).to_have_text("Session with Front counter")

    bea_page = open_dashboard(server)
    sign_in_and_go_available(bea_page, bea)
    ann_page.click("#transfer-refresh")
    ann_page.select_option("#transfer-to", label="Bea Agent (es)")
    ann_page.click("#transfer-send")
    card(bea_page, session_id).locator("button.accept").click()
    expect(bea_page.locator("#session-title")).to_have_text("Session with Front counter")

    # Ann hears nothing over the socket; her session poll (every 5 s) finds Bea serving: her
    # page's clock is run past the next one rather than waited for.
    ann_page.clock.fast_forward(5_000)
    expect(ann_page.locator("#session")).to_be_hidden(timeout=15_000)
    expect(ann_page.locator("#session-result")).to_have_text("Bea Agent is now serving the customer at Front counter.")
    expect(ann_page.locator("#agent-status")).to_have_attribute("data-status", "available")
    # Her sessions today still list the customer she handed over, and say to whom.
    ann_page.click("button.tab[data-tab='history']")
    row = ann_page.locator(f"#history-rows tr[data-session-id='{session_id}']")
    expect(row).to_contain_text("Front counter")
    expect(row).to_contain_text("handed to Bea Agent")
    for page in (ann_page, bea_page):
        assert_no_console_errors(page)
