"""Show to customer and point at an item in two real Chromium pages against the real server: the
agent's "Show" opens the item large on the kiosk (photo or placeholder, description, options), the
customer's tap on an item is said on the agent's dashboard, neither touches the cart; the agent's
menu shows the stock left of a tracked item."""

import re

import pytest
from playwright.sync_api import expect

from apps.menu.models import MenuItem
from tests import factories
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors

pytestmark = pytest.mark.live


def test_the_agent_shows_an_item_and_the_customer_points_at_one(world, kiosk, serve, open_page):
    burger = world.items["burger"]
    MenuItem.objects.filter(pk=burger.pk).update(track_stock=True, stock=5)
    group = factories.ModifierGroupFactory(item=burger, name="Extras", required=False, min=0, max=2)
    factories.ModifierOptionFactory(group=group, name="Cheese", price_cents=100)
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)

    tablet.click("button.language[data-locale='es-ES']")  # the kiosk in Spanish, the dashboard in English
    tablet.click("#start")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    card(dashboard, incoming.get_attribute("data-session-id")).locator("button.accept").click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    burger_entry = dashboard.locator("#menu li.menu-entry", has=dashboard.locator(".name", has_text="Burger"))
    expect(burger_entry.locator(".stock")).to_have_text("5 left")

    # The agent shows the burger: the kiosk opens it large.
    burger_entry.locator("button.show-item").click()
    shown = tablet.locator("#item-shown")
    expect(shown).to_be_visible()
    expect(tablet.locator("#item-shown-name")).to_have_text("Burger")
    expect(tablet.locator("#item-shown-from")).to_have_text("Ada Agent te muestra:")
    expect(shown.locator(".description")).to_have_text("Beef.")
    expect(shown.locator(".options h3")).to_have_text("Extras")
    # the price in the order's currency once the kiosk has read its order, the amount alone before
    expect(shown.locator(".options li")).to_have_text(re.compile(r"^Cheese \(\+1,00(\sUS\$)?\)$"))
    tablet.keyboard.press("Escape")  # a native modal dialog: Escape closes it
    expect(shown).to_be_hidden()

    # The customer points at the fries (by keyboard: a focusable item), the agent is told.
    fries = tablet.locator("#kiosk-menu-categories .menu-item", has=tablet.locator(".name", has_text="Fries"))
    fries.focus()
    tablet.keyboard.press("Enter")
    expect(dashboard.locator("#customer-pointing")).to_have_text("The customer is looking at Fries.")
    expect(tablet.locator("#kiosk-menu-pointed")).to_have_text("Ada Agent ve que estás mirando Fries.")

    # And by tap.
    tablet.locator("#kiosk-menu-categories .menu-item", has=tablet.locator(".name", has_text="Burger")).click()
    expect(dashboard.locator("#customer-pointing")).to_have_text("The customer is looking at Burger.")
    expect(tablet.locator("#kiosk-menu-pointed")).to_have_text("Ada Agent ve que estás mirando Burger.")

    # Neither side touched the cart: it stays the agent's.
    expect(tablet.locator("#cart-lines li")).to_have_count(0)
    expect(dashboard.locator("#cart-lines li")).to_have_count(0)
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
