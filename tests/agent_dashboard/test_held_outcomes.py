"""A held session that leaves the agent's hands stays said on its card across a reload, until the
agent dismisses it; the status line counts the seats (capacity 2) and follows a seat that frees
without a reload; an offer card says the accessible mode the waiting customer turned on after
the offer. The card comes back as the server reads the session after the reload, not from
what the tab remembered of its words (the tab keeps only its id)."""

import pytest
from playwright.sync_api import expect

from apps.routing.services import owner_capacity_set
from tests import factories
from tests.agent_dashboard.conftest import assert_no_console_errors, card, sign_in_and_go_available

pytestmark = pytest.mark.live


def test_an_outcome_card_survives_a_reload_and_the_status_line_counts_seats(world, serve, open_dashboard):
    [agent] = world.agents
    owner_capacity_set(owner_id=world.business.owner_id, capacity=2)
    window = factories.KioskFactory(business=world.business, name="Drive window", location="Car park")
    server = serve(TASK_MODE="thread", AGENT_FALLBACK_POLL_SECONDS="600")  # told on the channel, not read
    page = open_dashboard(server)
    sign_in_and_go_available(page, agent)
    expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
    detail = page.locator("#status-banner-detail")

    video_id = server.start_session(world.kiosk)
    card(page, video_id).locator("button.accept").click()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")
    expect(detail).to_have_text("1 of 2 seats taken. Customers are offered to you as they arrive.")

    started = server.kiosk_call(
        window,
        "POST",
        "/sessions/start",
        {"device_id": str(window.device_id), "customer_locale": "en-US", "medium": "chat"},
    )
    assert started.status_code == 201, started.text
    chat_id = started.json()["session_id"]
    # The waiting customer turns accessible mode on after the offer was made: its card says it.
    offer = card(page, chat_id)
    expect(offer.locator(".medium")).to_have_text("Text chat")
    expect(offer.locator(".accessible-mode")).to_have_count(0)
    turned = server.kiosk_call(window, "POST", f"/sessions/{chat_id}/accessible", {"accessible_mode": True})
    assert turned.status_code == 200, turned.text
    expect(offer.locator(".accessible-mode")).to_have_text("Accessible mode: the customer may not see the screen")
    offer.locator("button.accept").click()
    held = page.locator(f"#held-cards li[data-session-id='{chat_id}']")
    expect(held).to_have_attribute("data-state", "chat")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "busy")
    expect(detail).to_have_text("All 2 seats are taken: the next customer is offered when one frees.")

    # The chat customer leaves: its card says so, and the freed seat is said without a reload.
    left = server.kiosk_call(window, "POST", f"/sessions/{chat_id}/cancel", {})
    assert left.status_code == 200, left.text
    expect(held).to_have_attribute("data-state", "ended")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")
    expect(detail).to_have_text("1 of 2 seats taken. Customers are offered to you as they arrive.")
    said = held.locator(".held-state").inner_text()

    page.reload()
    expect(page.locator("#session-title")).to_have_text("Session with Front counter")
    expect(held).to_have_attribute("data-state", "ended")
    expect(held.locator(".held-state")).to_have_text(said)
    held.locator("button.dismiss").click()
    expect(held).to_have_count(0)
    kept = page.evaluate(
        "() => Object.keys(sessionStorage)"
        ".filter((k) => k.startsWith('agent-outcomes:')).map((k) => sessionStorage.getItem(k))"
    )
    assert kept == ["[]"], kept  # dismissed: the next reload does not bring it back
    assert_no_console_errors(page)
