"""The kiosk's order in the customer's words (issue 23 part 2): a Spanish customer's cart lines,
item names and modifiers, come in Spanish from the menu's translations on every kiosk surface
(GET order, the self-service answer, OrderUpdated); the agent keeps the catalog's words; a line
whose words are not translated, or whose item is gone, keeps the words it was ordered with."""

import pytest

from apps.sessions import services as session_services
from tests import factories


@pytest.fixture
def menu(business):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(
        category=category, name="Burger", price_cents=899, translations={"es": {"name": "Hamburguesa"}}
    )
    extras = factories.ModifierGroupFactory(item=burger, name="Extras", max=2, translations={"es": {"name": "Extras"}})
    return {
        "burger": burger,
        "cheese": factories.ModifierOptionFactory(group=extras, name="Cheese", translations={"es": {"name": "Queso"}}),
        "bacon": factories.ModifierOptionFactory(group=extras, name="Bacon"),  # not translated
        "fries": factories.MenuItemFactory(category=category, name="Fries", price_cents=349),
    }


def cart(menu):
    return [
        {
            "menu_item_id": str(menu["burger"].pk),
            "quantity": 2,
            "modifier_option_ids": [str(menu["cheese"].pk), str(menu["bacon"].pk)],
        },
        {"menu_item_id": str(menu["fries"].pk), "quantity": 1},
    ]


SPANISH = [
    ("Hamburguesa", [{"group": "Extras", "value": "Queso"}, {"group": "Extras", "value": "Bacon"}]),
    ("Fries", []),
]
CATALOG = [
    ("Burger", [{"group": "Extras", "value": "Cheese"}, {"group": "Extras", "value": "Bacon"}]),
    ("Fries", []),
]


def words(order: dict) -> list:
    return [(line["name"], line["modifiers"]) for line in order["lines"]]


def test_the_kiosk_reads_the_agents_cart_in_spanish_and_the_agent_in_the_catalogs_words(
    kiosk, kiosk_client, agent, agent_client, menu, broadcasts
):
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="es-MX")
    session = session_services.session_accept(public_id=waiting.public_id, agent=agent)
    answer = agent_client.post(
        "/api/orders", {"session_id": session.public_id, "lines": cart(menu)}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert words(answer.json()) == CATALOG
    assert words(agent_client.get(f"/api/sessions/{session.public_id}").json()["order"]) == CATALOG

    kiosk_order = kiosk_client.get(f"/api/public/sessions/{session.public_id}/order")
    assert kiosk_order.status_code == 200
    assert words(kiosk_order.json()) == SPANISH
    [updated] = [b for b in broadcasts if b.event == "OrderUpdated"]
    assert words(updated.data) == SPANISH

    menu["burger"].delete()  # an item taken off the menu keeps the words it was ordered with
    assert words(kiosk_client.get(f"/api/public/sessions/{session.public_id}/order").json()) == CATALOG


def test_a_customer_ordering_alone_gets_the_cart_back_in_their_words(kiosk, kiosk_client, menu):
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="es")
    answer = kiosk_client.post(
        f"/api/public/sessions/{waiting.public_id}/order", {"lines": cart(menu)}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert words(answer.json()) == SPANISH
    assert answer.json()["lines"][0]["modifier_option_ids"] == [str(menu["cheese"].pk), str(menu["bacon"].pk)]


def test_an_english_customer_reads_the_catalogs_words(kiosk, kiosk_client, menu):
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="en-US")
    posted = kiosk_client.post(
        f"/api/public/sessions/{waiting.public_id}/order", {"lines": cart(menu)}, content_type="application/json"
    )
    assert words(posted.json()) == CATALOG
