"""A transfer in the browsers: two agents' dashboards and one kiosk against the real server. Ann
serves the customer, picks Bea in the Transfer list; Bea's dashboard shows the transfer card (who
sends it) and she accepts; the kiosk names Bea, Ann's dashboard says who took over and is back in
the queue, Bea's shows the session with its cart. A second transfer nobody takes leaves the customer
with the sender, said in words. Keyboard only on the sender's side."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available
from tests.kiosk_app.conftest import assert_no_console_errors as kiosk_console_errors

pytestmark = pytest.mark.live


def test_a_transfer_moves_the_kiosk_to_the_new_agent(world, serve, open_dashboard, open_kiosk):
    ann = world.agents[0]
    bea = factories.AgentFactory(owner=world.business.owner, name="Bea Agent", agent_status="offline", languages=["es"])
    server = serve(TASK_MODE="thread", ROUTING_OFFER_SECONDS="4")
    ann_page = open_dashboard(server)
    sign_in_and_go_available(ann_page, ann)
    kiosk = open_kiosk(server, world.kiosk)
    expect(kiosk.locator("body")).to_have_attribute("data-screen", "attract")
    kiosk.click("#start")
    offered = ann_page.locator("#incoming li")
    expect(offered).to_have_count(1)
    session_id = offered.get_attribute("data-session-id")
    offered.locator("button.accept").click()
    expect(ann_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(kiosk.locator("#agent-name")).to_have_text("Ada Agent")
    ann_page.locator("button.menu-item[data-item-id]", has_text="Fries").click()
    expect(ann_page.locator("#cart-lines li")).to_have_count(1)
    expect(ann_page.locator("#cart-lines")).to_have_attribute("data-saving", "false")

    # Nobody is free yet: the list says so. Bea signs in; the list, refreshed, names her.
    expect(ann_page.locator("#transfer-to option").first).to_have_text("Nobody is free just now")
    bea_page = open_dashboard(server)
    sign_in_and_go_available(bea_page, bea)
    ann_page.focus("#transfer-refresh")
    ann_page.keyboard.press("Enter")
    expect(ann_page.locator("#transfer-to optgroup[label='Colleagues'] option")).to_have_text(["Bea Agent (es)"])
    expect(ann_page.locator("#transfer-to optgroup[label='Languages'] option")).to_have_text(
        ["Any agent who speaks Spanish"]
    )

    # First try: Bea lets it lapse; the customer stays with Ann, who is told so.
    ann_page.select_option("#transfer-to", label="Bea Agent (es)")
    ann_page.focus("#transfer-send")
    ann_page.keyboard.press("Enter")
    expect(ann_page.locator("#transfer-state")).to_contain_text("Offered to Bea Agent: waiting for an answer")
    expect(ann_page.locator("#transfer-send")).to_be_disabled()
    transfer_card = card(bea_page, session_id)
    expect(transfer_card.locator(".transfer-from")).to_have_text("Transfer from Ada Agent")
    expect(transfer_card).to_have_count(0, timeout=10_000)  # lapsed
    expect(ann_page.locator("#transfer-state")).to_have_text(
        "Nobody took the transfer in time: the customer is still with you."
    )
    expect(ann_page.locator("#transfer-send")).to_be_enabled()
    expect(bea_page.locator("#agent-status")).to_have_attribute("data-status", "available")  # no miss for it

    # Second try, by language: Bea accepts; the kiosk names her; Ann is back in the queue.
    ann_page.select_option("#transfer-to", label="Any agent who speaks Spanish")
    ann_page.click("#transfer-send")
    card(bea_page, session_id).locator("button.accept").click()
    expect(bea_page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(bea_page.locator("#cart-lines li")).to_have_count(1)  # the cart came along
    expect(kiosk.locator("#agent-name")).to_have_text("Bea Agent")
    expect(kiosk.locator("body")).to_have_attribute("data-screen", "session")
    expect(ann_page.locator("#session")).to_be_hidden()
    expect(ann_page.locator("#session-result")).to_have_text("Bea Agent is now serving the customer at Front counter.")
    expect(ann_page.locator("#agent-status")).to_have_attribute("data-status", "available")
    for page in (ann_page, bea_page):
        assert_no_console_errors(page)
    kiosk_console_errors(kiosk)
