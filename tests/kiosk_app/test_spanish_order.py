"""The whole demo order in Spanish, the kiosk app and the agent dashboard in two real Chromium pages
against the real server with the demo processor (no processor key, as `make run`): the customer
picks Español, the kiosk's words, the menu's names and the cart are Spanish, the agent's card and
session header say the customer's language, the agent's menu and cart stay in the catalog's own
words with the customer's beside each line; a card with a processing error is said as such on both
sides (not "declined"), the next card pays, and the kiosk thanks the customer in Spanish."""

import re

import pytest
from playwright.sync_api import expect

from apps.menu.models import Category, MenuItem
from tests.agent_dashboard.conftest import card, sign_in_and_go_available
from tests.kiosk_app.conftest import as_paired, assert_no_console_errors
from tests.support.payments import demo_account_for

pytestmark = pytest.mark.live
PROCESSING_ERROR, SUCCEEDS = "4000 0000 0000 0119", "4242 4242 4242 4242"


def test_a_spanish_customer_orders_and_pays_with_the_demo_processor(world, kiosk, serve, open_page):
    demo_account_for(world.business.owner, "acct_demo_spanish")
    burger, fries = world.items["burger"], world.items["fries"]
    Category.objects.filter(pk=burger.category_id).update(translations={"es": {"name": "Hamburguesas"}})
    MenuItem.objects.filter(pk=burger.pk).update(
        translations={"es": {"name": "Hamburguesa", "description": "Ternera."}}
    )
    MenuItem.objects.filter(pk=fries.pk).update(translations={"es": {"name": "Patatas fritas"}})
    server = serve()
    tablet = open_page("/kiosk/", server, before=as_paired(kiosk))
    dashboard = open_page("/agent/", server)
    sign_in_and_go_available(dashboard, world.agent)

    # The kiosk in Spanish from the customer's first tap.
    expect(tablet.locator("body")).to_have_attribute("data-screen", "attract")
    tablet.click("button.language[data-locale='es-ES']")
    expect(tablet.locator("#start")).to_have_text("Empieza tu pedido")
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")

    # The agent's card and header say the customer's language.
    incoming = dashboard.locator("#incoming li").first
    expect(incoming.locator(".language")).to_have_text("Spanish (Spain)")
    card(dashboard, incoming.get_attribute("data-session-id")).locator("button.accept").click()
    expect(dashboard.locator("#session-language")).to_have_text("Customer's language: Spanish (Spain)")

    # The kiosk's menu in Spanish beside the agent; the agent's in the catalog's own words.
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    expect(tablet.locator("#kiosk-menu-title")).to_have_text("Nuestra carta")
    expect(tablet.locator("#kiosk-menu-categories h3")).to_have_text(["Hamburguesas"])
    expect(tablet.locator("#kiosk-menu-categories .menu-item .name")).to_have_text(["Hamburguesa", "Patatas fritas"])
    expect(tablet.locator("#kiosk-menu-categories .menu-item .description").first).to_have_text("Ternera.")
    dashboard.click("button.menu-item:has-text('Burger')")
    dashboard.click("button.menu-item:has-text('Fries')")
    expect(dashboard.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    expect(tablet.locator("#cart-lines li")).to_have_count(2)
    # The cart lines in the customer's words on the kiosk; the customer's word beside the agent's.
    expect(tablet.locator("#cart-lines li .name")).to_have_text(["Hamburguesa", "Patatas fritas"])
    expect(dashboard.locator("#cart-lines li .name")).to_have_text(["Burger", "Fries"])
    expect(dashboard.locator("#cart-lines li .customer-words")).to_have_text(["(Hamburguesa)", "(Patatas fritas)"])
    expect(tablet.locator("#cart-subtotal")).to_have_text("13,00\u00a0US$")  # es-ES numbers

    # Payment: a processing error is said as a fault to retry, on both sides.
    dashboard.click("#send-payment")
    expect(tablet.locator("#payment")).to_be_visible()
    expect(tablet.locator("#payment-amount")).to_have_text(re.compile(r"^A pagar: \d+,\d\d\u00a0US\$$"))
    tablet.fill("#card-number", PROCESSING_ERROR)
    tablet.click("#pay")
    expect(tablet.locator("#payment-error")).to_contain_text("No se ha podido procesar tu tarjeta")
    expect(dashboard.locator("#payment-state")).to_contain_text("The card could not be processed")
    expect(dashboard.locator("#payment-state")).not_to_contain_text("declined.")

    tablet.click(f"button.test-card:has-text('{SUCCEEDS}')")
    tablet.click("#pay")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "thanks")
    expect(tablet.locator("#thanks-total")).to_have_text(re.compile(r"^Pagado \d+,\d\d\u00a0US\$$"))
    expect(tablet.locator("body")).to_contain_text("¡Gracias!")
    expect(dashboard.locator("#session-result")).to_contain_text("Paid: order")
    assert_no_console_errors(tablet)
    assert_no_console_errors(dashboard)
