"""The status an agent signs in with, on the dashboard (docs/decisions/agent-dashboard.md "Sign-in status"):
an agent left offline signs in and is Available, shown large across the top bar without
pressing anything, and a customer who starts a session rings it; where the owner's routing
settings say agents start on break, it signs in On break."""

import pytest
from playwright.sync_api import expect

from apps.routing.models import RoutingSettings
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in

pytestmark = pytest.mark.live


def _status_banner_is_prominent(page) -> None:
    banner = page.locator("#status-banner")
    expect(banner).to_be_in_viewport()
    title_px = page.locator("#status-banner-title").evaluate("node => parseFloat(getComputedStyle(node).fontSize)")
    body_px = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
    assert title_px >= 1.5 * body_px, (title_px, body_px)
    box = banner.bounding_box()
    assert box is not None and box["width"] >= 0.8 * page.viewport_size["width"]


def test_an_offline_agent_signs_in_available_and_a_new_customer_rings_it(world, serve, open_dashboard):
    [agent] = world.agents  # offline, as an agent is after a night away
    server = serve()
    page = open_dashboard(server)

    sign_in(page, agent.email)

    expect(page.locator("#app")).to_be_visible()
    banner = page.locator("#status-banner")
    expect(banner).to_have_attribute("data-status", "available")
    expect(page.locator("#status-banner-title")).to_have_text("Available")
    expect(page.locator("#status-banner-detail")).to_have_text("Customers are offered to you as they arrive.")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")
    expect(page.locator("#status-notice")).to_be_hidden()  # no "you were away" banner
    _status_banner_is_prominent(page)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")

    session_id = server.start_session(world.kiosk)
    expect(card(page, session_id)).to_be_visible(timeout=20_000)
    assert_no_console_errors(page)


def test_where_agents_start_on_break_the_agent_signs_in_on_break(world, serve, open_dashboard):
    [agent] = world.agents
    RoutingSettings.objects.create(
        owner=world.business.owner,
        offer_size=3,
        offer_seconds=15,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=120,
        agents_start_on_break=True,
    )
    server = serve()
    page = open_dashboard(server)

    sign_in(page, agent.email)

    expect(page.locator("#status-banner")).to_have_attribute("data-status", "break")
    expect(page.locator("#status-banner-title")).to_have_text("On break")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "break")
    _status_banner_is_prominent(page)
    page.select_option("#agent-status", "available")  # the agent's own "I'm back"
    expect(page.locator("#status-banner-title")).to_have_text("Available")
    assert_no_console_errors(page)
