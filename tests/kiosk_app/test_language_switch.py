"""The customer changes language during the session, in two real Chromium pages (the kiosk and
the agent's dashboard) against the real server: the language buttons stay on the waiting and
session screens; a switch while waiting changes the agent's offer card, a switch with the agent
changes the kiosk's words, its menu and cart lines, and the agent's header, without a reload."""

import pytest
from playwright.sync_api import expect

from apps.menu.models import Category, MenuItem
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors

pytestmark = pytest.mark.live


def test_the_language_changes_mid_session_for_the_kiosk_and_the_agent(world, kiosk, serve, open_page):
    burger, fries = world.items["burger"], world.items["fries"]
    Category.objects.filter(pk=burger.category_id).update(
        translations={"es": {"name": "Hamburguesas"}, "de": {"name": "Burger"}}
    )
    MenuItem.objects.filter(pk=burger.pk).update(
        translations={"es": {"name": "Hamburguesa"}, "de": {"name": "Rindfleischburger"}}
    )
    MenuItem.objects.filter(pk=fries.pk).update(
        translations={"es": {"name": "Patatas fritas"}, "de": {"name": "Pommes frites"}}
    )
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)

    # Started in English; while waiting the customer picks Español: the agent's card says it.
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming.locator(".language")).to_have_text("English (United States)")
    tablet.click("button.language[data-locale='es-ES']")
    expect(tablet.locator("#waiting-title")).to_have_text("Buscando a alguien que te ayude…")
    expect(incoming.locator(".language")).to_have_text("Spanish (Spain)")

    # The agent takes it: the header says Spanish, the kiosk's menu is Spanish.
    card(dashboard, incoming.get_attribute("data-session-id")).locator("button.accept").click()
    expect(dashboard.locator("#session-language")).to_have_text("Customer's language: Spanish (Spain)")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#kiosk-menu-title")).to_have_text("Nuestra carta")
    expect(tablet.locator("#kiosk-menu-categories .menu-item .name")).to_have_text(["Hamburguesa", "Patatas fritas"])
    dashboard.click("button.menu-item:has-text('Burger')")
    expect(dashboard.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(tablet.locator("#cart-lines li .name")).to_have_text(["Hamburguesa"])

    # With the agent, Deutsch: the kiosk's words, menu and cart line change; so does the agent's header.
    switch = tablet.locator("button.language[data-locale='de-DE']")
    expect(switch).to_be_visible()
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(tablet.locator("#kiosk-menu-title")).to_have_text("Unsere Speisekarte")
    expect(tablet.locator("#leave-session")).to_have_text("Ich bin fertig, gehen")
    expect(tablet.locator("#kiosk-menu-hint")).to_have_text(f"Sagen Sie {world.agent.name}, was Sie möchten.")
    german = ["Rindfleischburger", "Pommes frites"]
    expect(tablet.locator("#kiosk-menu-categories .menu-item .name")).to_have_text(german)
    expect(tablet.locator("#cart-lines li .name")).to_have_text(["Rindfleischburger"])
    expect(dashboard.locator("#session-language")).to_have_text("Customer's language: German (Germany)")

    # A reload keeps the language the customer chose last.
    tablet.reload()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#kiosk-menu-title")).to_have_text("Unsere Speisekarte")
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
