"""A person first, in one real Chromium against the live server, the agent's dashboard and the
kiosk side by side: a Spanish customer in the kiosk's accessible mode asks for a person; the
agent's card and session view say "Accessible mode: the customer may not see the screen"; the
agent's "Read the cart aloud" (by keyboard) has the kiosk speak the cart and its total in Spanish,
observed through the page's real speechSynthesis.speak; out of the mode the kiosk still reads it,
and the dashboard's note goes."""

import re

import pytest
from playwright.sync_api import expect

from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import assert_no_console_errors
from tests.kiosk_app.test_accessible_mode import heard, listening

pytestmark = pytest.mark.live
LABEL = "Accessible mode: the customer may not see the screen"


def test_the_agent_sees_the_mode_and_has_the_kiosk_read_the_cart_aloud(world, kiosk, serve, open_page):
    server = serve()
    tablet = open_page("/kiosk/", server, before=listening(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)
    body = tablet.locator("body")
    expect(body).to_have_attribute("data-screen", "attract")

    # The customer picks Spanish, starts the mode with a key, and asks for a person.
    tablet.click("button.language[data-locale='es-ES']")
    tablet.keyboard.press("ArrowDown")
    expect(body).to_have_attribute("data-accessible", "true")
    with tablet.expect_response(re.compile(r"/api/public/sessions/start$")) as started:
        tablet.keyboard.press("0")  # a person
    assert started.value.request.post_data_json["accessible_mode"] is True
    session_id = started.value.json()["session_id"]

    # The agent's card says it; so does the session view once accepted.
    offer = card(dashboard, session_id)
    expect(offer.locator(".accessible-mode")).to_have_text(LABEL)
    offer.locator("button.accept").click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    note = dashboard.locator("#session-accessible .accessible-mode")
    expect(note).to_be_visible()
    expect(note).to_have_text(LABEL)

    # The agent puts a burger in the cart; the kiosk shows it.
    dashboard.locator("#menu button.menu-item", has=dashboard.locator(".name", has_text="Burger")).click()
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    tablet.evaluate("window.__spoken = []")

    # "Read the cart aloud", by keyboard: the kiosk speaks the cart and its total in Spanish.
    read = dashboard.locator("#session-accessible button.read-aloud")
    read.focus()
    with dashboard.expect_response(re.compile(rf"/api/sessions/{session_id}/read-aloud$")) as answered:
        dashboard.keyboard.press("Enter")
    assert answered.value.status == 200
    said = heard(tablet, r"^Tu pedido: 1 Burger, 10,00.*\. Total \d+,\d\d")
    spoken = tablet.evaluate("window.__spoken")
    assert {entry["lang"] for entry in spoken if entry["text"] == said} == {"es-ES"}

    # The customer leaves the mode ("#"): the dashboard's note goes with its next read of the
    # session, and the kiosk still reads the cart aloud when asked.
    tablet.keyboard.press("#")
    expect(body).to_have_attribute("data-accessible", "false")
    expect(note).to_be_hidden(timeout=15_000)
    tablet.evaluate("window.__spoken = []")
    read.click()
    heard(tablet, r"^Tu pedido: 1 Burger, 10,00.*\. Total \d+,\d\d")
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
