"""The order in the customer's words: each line of the order object keeps the catalog's words
(`name`, `modifiers`: the spec's shape, the same on every surface) and adds `customer_words`, the
name and modifiers in the session's language from the menu's translations, for the kiosk to show and
the agent to read beside the line; null when nothing reads differently. A word not translated, or an
item taken off the menu since, keeps the words it was ordered with."""

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
    {
        "name": "Hamburguesa",
        "modifiers": [{"group": "Extras", "value": "Queso"}, {"group": "Extras", "value": "Bacon"}],
    },
    None,  # Fries: not translated
]
CATALOG = [
    ("Burger", [{"group": "Extras", "value": "Cheese"}, {"group": "Extras", "value": "Bacon"}]),
    ("Fries", []),
]


def words(order: dict) -> list:
    return [(line["name"], line["modifiers"]) for line in order["lines"]]


def customer_words(order: dict) -> list:
    return [line["customer_words"] for line in order["lines"]]


def test_every_surface_gives_the_catalogs_words_and_the_spanish_customers_beside_them(
    kiosk, kiosk_client, agent, agent_client, menu, broadcasts
):
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="es-MX")
    session = session_services.session_accept(public_id=waiting.public_id, agent=agent)
    answer = agent_client.post(
        "/api/orders", {"session_id": session.public_id, "lines": cart(menu)}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    agents_read = agent_client.get(f"/api/sessions/{session.public_id}").json()["order"]
    kiosk_read = kiosk_client.get(f"/api/public/sessions/{session.public_id}/order").json()
    [updated] = [b for b in broadcasts if b.event == "OrderUpdated"]
    for order in (answer.json(), agents_read, kiosk_read, updated.data):
        assert words(order) == CATALOG
        assert customer_words(order) == SPANISH
    assert updated.data == answer.json()  # the spec: POST /orders answers the kiosk's order object

    menu["burger"].delete()  # taken off the menu (its options with it): the words it was ordered with
    kiosk_read = kiosk_client.get(f"/api/public/sessions/{session.public_id}/order").json()
    assert words(kiosk_read) == CATALOG
    assert customer_words(kiosk_read) == [None, None]


def test_a_customer_ordering_alone_gets_their_words_back(kiosk, kiosk_client, menu):
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="es")
    answer = kiosk_client.post(
        f"/api/public/sessions/{waiting.public_id}/order", {"lines": cart(menu)}, content_type="application/json"
    )
    assert answer.status_code == 200, answer.content
    assert customer_words(answer.json()) == SPANISH
    assert answer.json()["lines"][0]["modifier_option_ids"] == [str(menu["cheese"].pk), str(menu["bacon"].pk)]


def test_an_english_customer_reads_the_catalogs_words_with_nothing_beside(kiosk, kiosk_client, menu):
    waiting = factories.SessionFactory(kiosk=kiosk, customer_locale="en-US")
    posted = kiosk_client.post(
        f"/api/public/sessions/{waiting.public_id}/order", {"lines": cart(menu)}, content_type="application/json"
    )
    assert words(posted.json()) == CATALOG
    assert customer_words(posted.json()) == [None, None]
