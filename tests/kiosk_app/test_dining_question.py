"""Eat in or take away on the kiosk: on the payment step the customer is asked in their language,
the answer is saved at once, the card form is never held back, and the paid order's kitchen ticket
says it."""

import pytest
import requests
from playwright.sync_api import expect

from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.displays import display_token
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live


def test_the_customer_chooses_take_away_in_spanish_and_the_kitchen_sees_it(world, kiosk, serve, open_page):
    demo_account_for(world.business.owner, "acct_demo_dining")
    kitchen = {"X-Display-Token": display_token(world.business, "kitchen")}
    server = serve()
    agent = server.agent(world.agent.email)

    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("button.language[data-locale='es-ES']")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    session_id = agent.get(f"{server.url}/api/sessions/incoming", timeout=10).json()["sessions"][0]["id"]
    assert agent.post(f"{server.url}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
    lines = [{"menu_item_id": str(world.items["burger"].pk), "quantity": 1}]
    assert agent.post(f"{server.url}/api/orders", json={"session_id": session_id, "lines": lines}, timeout=10).ok
    assert agent.post(f"{server.url}/api/sessions/{session_id}/payment", timeout=20).status_code == 200

    expect(tablet.locator("#dining")).to_be_visible()
    expect(tablet.locator("#dining-question")).to_have_text("¿Para comer aquí o para llevar?")
    expect(tablet.locator("#card-number")).to_be_visible()  # the card form is not held back
    take_away = tablet.locator("#dining-take-away")
    expect(take_away).to_have_text("Para llevar")
    take_away.focus()
    tablet.keyboard.press("Enter")
    expect(take_away).to_have_attribute("aria-pressed", "true")
    expect(tablet.locator("#dining-eat-in")).to_have_attribute("aria-pressed", "false")
    chosen = server.kiosk_call(kiosk, "GET", f"/sessions/{session_id}/dining").json()
    assert chosen == {"ask": True, "dining": "take_away"}

    tablet.fill("#card-number", "4242 4242 4242 4242")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    tickets = requests.get(f"{server.url}/api/displays/kitchen/tickets", headers=kitchen, timeout=10).json()["tickets"]
    assert [(ticket["dining"], ticket["lines"][0]["name"]) for ticket in tickets] == [("take_away", "Burger")]
    assert_no_console_errors(tablet)
