"""GET /api/menu: the active catalog of the business of the agent's live session, in the spec's
shape, sold-out items flagged, in a fixed number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.sessions import services as session_services
from tests import factories


@pytest.fixture
def catalog(business):
    return factories.CatalogFactory(business=business)


@pytest.fixture
def live_session(kiosk, agent):
    session = factories.SessionFactory(kiosk=kiosk)
    return session_services.session_accept(public_id=session.public_id, agent=agent)


def build_menu(catalog, categories=2, items=3):
    for c in range(categories):
        category = factories.CategoryFactory(catalog=catalog, sort_order=categories - c)
        for _ in range(items):
            item = factories.MenuItemFactory(category=category)
            group = factories.ModifierGroupFactory(item=item, required=True, min=1, max=2)
            factories.ModifierOptionFactory.create_batch(2, group=group, price_cents=50)


def test_menu_has_the_spec_shape(agent_client, catalog, live_session):
    category = factories.CategoryFactory(catalog=catalog, name="Burgers", sort_order=1)
    item = factories.MenuItemFactory(category=category, name="Classic", price_cents=899, photo="abc.webp")
    group = factories.ModifierGroupFactory(item=item, name="Cooking", required=True, min=1, max=1)
    option = factories.ModifierOptionFactory(group=group, name="Medium", price_cents=0)
    response = agent_client.get("/api/menu")
    assert response.status_code == 200
    assert response.json() == {
        "categories": [
            {
                "id": str(category.pk),
                "name": "Burgers",
                "sort_order": 1,
                "menu_items": [
                    {
                        "id": str(item.pk),
                        "name": "Classic",
                        "description": "Tasty.",
                        "price_cents": 899,
                        "photo_url": "http://testserver/media/menu-photos/abc.webp",
                        "sold_out": False,
                        "stock_left": None,
                        "modifier_groups": [
                            {
                                "id": str(group.pk),
                                "name": "Cooking",
                                "required": True,
                                "min": 1,
                                "max": 1,
                                "options": [{"id": str(option.pk), "name": "Medium", "price_cents": 0}],
                            }
                        ],
                    }
                ],
            }
        ]
    }


def test_categories_sorted_inactive_items_hidden_sold_out_flagged(agent_client, catalog, live_session):
    second = factories.CategoryFactory(catalog=catalog, sort_order=2)
    first = factories.CategoryFactory(catalog=catalog, sort_order=1)
    factories.MenuItemFactory(category=first, active=False)
    sold_out = factories.MenuItemFactory(category=first, track_stock=True, stock=0)
    in_stock = factories.MenuItemFactory(category=second, track_stock=True, stock=3)
    categories = agent_client.get("/api/menu").json()["categories"]
    assert [c["id"] for c in categories] == [str(first.pk), str(second.pk)]
    assert [(i["id"], i["sold_out"]) for i in categories[0]["menu_items"]] == [(str(sold_out.pk), True)]
    assert [(i["id"], i["sold_out"]) for i in categories[1]["menu_items"]] == [(str(in_stock.pk), False)]


def test_the_agent_sees_the_stock_left_of_tracked_items(agent_client, catalog, live_session):
    category = factories.CategoryFactory(catalog=catalog)
    tracked = factories.MenuItemFactory(category=category, track_stock=True, stock=3)
    overdrawn = factories.MenuItemFactory(category=category, track_stock=True, stock=-2)
    untracked = factories.MenuItemFactory(category=category, track_stock=False, stock=7)
    items = agent_client.get("/api/menu").json()["categories"][0]["menu_items"]
    assert {i["id"]: (i["stock_left"], i["sold_out"]) for i in items} == {
        str(tracked.pk): (3, False),
        str(overdrawn.pk): (0, True),
        str(untracked.pk): (None, False),
    }


def test_only_the_active_catalog_is_served(agent_client, business, catalog, live_session):
    factories.CategoryFactory(catalog=factories.CatalogFactory(business=business, is_active=False), name="Old")
    factories.CategoryFactory(catalog=catalog, name="Current")
    assert [c["name"] for c in agent_client.get("/api/menu").json()["categories"]] == ["Current"]


def test_menu_is_the_live_sessions_business_never_another_owners(agent_client, catalog, live_session, other_business):
    factories.CategoryFactory(catalog=factories.CatalogFactory(business=other_business), name="Theirs")
    factories.CategoryFactory(catalog=catalog, name="Ours")
    assert [c["name"] for c in agent_client.get("/api/menu").json()["categories"]] == ["Ours"]


def test_without_a_live_session_the_menu_answers_409(agent_client, catalog):
    response = agent_client.get("/api/menu")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "NO_ACTIVE_SESSION"


def test_business_without_active_catalog_has_an_empty_menu(agent_client, live_session):
    assert agent_client.get("/api/menu").json() == {"categories": []}


def test_menu_needs_a_signed_in_agent(db):
    from tests.conftest import AgentClient

    response = AgentClient().get("/api/menu")
    assert response.status_code == 401


def test_query_count_does_not_grow_with_the_menu(agent_client, catalog, live_session):
    build_menu(catalog, categories=1, items=1)
    with CaptureQueriesContext(connection) as small:
        agent_client.get("/api/menu")
    build_menu(catalog, categories=5, items=8)
    with CaptureQueriesContext(connection) as large:
        response = agent_client.get("/api/menu")
    assert sum(len(c["menu_items"]) for c in response.json()["categories"]) == 41
    assert len(large.captured_queries) == len(small.captured_queries)
    assert len(large.captured_queries) <= 10
