"""GET /api/public/menu: the kiosk's own business's active menu in the customer's language
(falling back to the business's), allergens, dietary tags, sold-out state, absolute photo URLs,
and a cheap conditional read."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.menu import services as menu_services
from tests import factories
from tests.conftest import kiosk_client_for


@pytest.fixture
def menu(business):
    catalog = factories.CatalogFactory(business=business, language="en")
    category = factories.CategoryFactory(catalog=catalog, name="Burgers", translations={"es": {"name": "Hamburguesas"}})
    item = factories.MenuItemFactory(
        category=category,
        name="Classic burger",
        description="Beef patty.",
        translations={"es": {"name": "Hamburguesa clásica", "description": ""}},
        price_cents=899,
        allergens=["gluten", "milk"],
        dietary=[],
        photo="0123abcd.webp",
    )
    group = factories.ModifierGroupFactory(item=item, name="Extras", translations={"es": {"name": "Extras"}})
    factories.ModifierOptionFactory(group=group, name="Cheese", translations={"es": {"name": "Queso"}})
    factories.ModifierOptionFactory(group=group, name="Bacon")
    sold_out = factories.MenuItemFactory(
        category=category, name="Veggie", track_stock=True, stock=0, dietary=["vegetarian", "vegan"]
    )
    factories.MenuItemFactory(category=category, name="Hidden", active=False)
    return catalog, category, item, group, sold_out


def test_spanish_menu_with_fallbacks(kiosk_client, menu):
    catalog, category, item, group, sold_out = menu
    response = kiosk_client.get("/api/public/menu?locale=es-MX")
    assert response.status_code == 200
    body = response.json()
    assert body["locale"] == "es" and body["default_locale"] == "en"
    [burgers] = body["categories"]
    assert burgers["name"] == "Hamburguesas"
    first, second = burgers["menu_items"]
    assert first == {
        "id": str(item.pk),
        "name": "Hamburguesa clásica",
        "description": "Beef patty.",  # blank translation: the business's own words
        "price_cents": 899,
        "photo_url": "http://testserver/media/menu-photos/0123abcd.webp",
        "sold_out": False,
        "allergens": ["gluten", "milk"],
        "dietary": [],
        "modifier_groups": [
            {
                "id": str(group.pk),
                "name": "Extras",
                "required": False,
                "min": 0,
                "max": 1,
                "options": [
                    {"id": str(group.options.all()[0].pk), "name": "Queso", "price_cents": 0},
                    {"id": str(group.options.all()[1].pk), "name": "Bacon", "price_cents": 0},
                ],
            }
        ],
    }
    assert second["id"] == str(sold_out.pk)
    assert second["sold_out"] is True and second["photo_url"] is None
    assert second["dietary"] == ["vegetarian", "vegan"]


def test_unknown_or_missing_locale_falls_back_to_the_business_language(kiosk_client, menu):
    for query in ("", "?locale=it", "?locale=EN"):
        body = kiosk_client.get("/api/public/menu" + query).json()
        assert body["locale"] == "en"
        assert body["categories"][0]["name"] == "Burgers"
        assert body["categories"][0]["menu_items"][0]["name"] == "Classic burger"


def test_a_catalog_written_in_spanish_falls_back_to_spanish(business, kiosk_client):
    catalog = factories.CatalogFactory(business=business, language="es")
    factories.CategoryFactory(catalog=catalog, name="Bebidas", translations={"en": {"name": "Drinks"}})
    assert kiosk_client.get("/api/public/menu?locale=de").json()["categories"][0]["name"] == "Bebidas"
    assert kiosk_client.get("/api/public/menu?locale=en").json()["categories"][0]["name"] == "Drinks"


@pytest.mark.parametrize("locale", ["x", "es!", "a" * 40, "es MX"])
def test_a_malformed_locale_is_422_in_the_kiosk_envelope(kiosk_client, menu, locale):
    response = kiosk_client.get("/api/public/menu", {"locale": locale})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert response.json()["error"]["request_id"]


def test_needs_device_credentials(client, menu):
    response = client.get("/api/public/menu")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"


def test_only_the_kiosks_own_business(menu, other_business):
    other_catalog = factories.CatalogFactory(business=other_business)
    factories.CategoryFactory(catalog=other_catalog, name="Their secret menu")
    other_kiosk = factories.KioskFactory(business=other_business)
    names = [c["name"] for c in kiosk_client_for(other_kiosk).get("/api/public/menu").json()["categories"]]
    assert names == ["Their secret menu"]


def test_no_active_catalog_is_an_empty_menu(kiosk_client):
    assert kiosk_client.get("/api/public/menu?locale=fr").json() == {
        "locale": "fr",
        "default_locale": "fr",
        "categories": [],
    }


def test_conditional_read_is_304_until_the_menu_changes(kiosk_client, menu):
    catalog, category, item, group, sold_out = menu
    first = kiosk_client.get("/api/public/menu?locale=es")
    etag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    with CaptureQueriesContext(connection) as queries:
        again = kiosk_client.get("/api/public/menu?locale=es", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    menu_queries = [q for q in queries.captured_queries if "menu_" in q["sql"]]
    assert len(menu_queries) == 1, menu_queries  # the catalog's head only
    assert kiosk_client.get("/api/public/menu?locale=en", headers={"If-None-Match": etag}).status_code == 200

    menu_services.menu_item_save(item=item, price_cents=999)
    changed = kiosk_client.get("/api/public/menu?locale=es", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert changed.json()["categories"][0]["menu_items"][0]["price_cents"] == 999


def test_running_out_of_stock_changes_the_etag(kiosk_client, menu, owner):
    catalog, category, item, group, sold_out = menu
    tracked = factories.MenuItemFactory(category=category, track_stock=True, stock=2)
    etag = kiosk_client.get("/api/public/menu")["ETag"]
    menu_services.stock_consume(quantities={tracked.pk: 1}, owner_id=owner.pk)
    assert kiosk_client.get("/api/public/menu", headers={"If-None-Match": etag}).status_code == 304
    menu_services.stock_consume(quantities={tracked.pk: 1}, owner_id=owner.pk)
    fresh = kiosk_client.get("/api/public/menu", headers={"If-None-Match": etag})
    assert fresh.status_code == 200
    assert [i["sold_out"] for i in fresh.json()["categories"][0]["menu_items"] if i["id"] == str(tracked.pk)] == [True]


def test_the_body_is_built_once_per_version(kiosk_client, menu):
    kiosk_client.get("/api/public/menu?locale=es")
    with CaptureQueriesContext(connection) as queries:
        assert kiosk_client.get("/api/public/menu?locale=es").status_code == 200
    assert len([q for q in queries.captured_queries if "menu_" in q["sql"]]) == 1


def test_the_agent_menu_stays_in_the_catalogs_language(agent_client, kiosk, agent, menu):
    from apps.sessions import services as session_services

    session = factories.SessionFactory(kiosk=kiosk)
    session_services.session_accept(public_id=session.public_id, agent=agent)
    category = agent_client.get("/api/menu").json()["categories"][0]
    assert category["name"] == "Burgers"
    assert "allergens" not in category["menu_items"][0]


def test_an_empty_locale_is_absent(kiosk_client, menu):
    response = kiosk_client.get("/api/public/menu?locale=")
    assert response.status_code == 200 and response.json()["locale"] == "en"


def test_the_schema_documents_the_menu_read(client):
    schema = client.get("/api/schema/", headers={"Accept": "application/json"}).json()
    operation = schema["paths"]["/api/public/menu"]["get"]
    assert {"200", "304", "401", "422"} <= set(operation["responses"])
    assert "ETag" in operation["responses"]["200"]["headers"]
    item = schema["components"]["schemas"]["PublicItemOut"]["properties"]
    assert {"allergens", "dietary", "sold_out", "photo_url"} <= set(item)


def test_an_unknown_query_parameter_is_422(kiosk_client, menu):
    response = kiosk_client.get("/api/public/menu?lang=es")
    assert response.status_code == 422 and "lang" in response.json()["error"]["details"]


def test_an_admin_edit_changes_the_etag(kiosk_client, menu, rf):
    from django.contrib.admin.sites import site

    catalog, category, item, group, sold_out = menu
    etag = kiosk_client.get("/api/public/menu")["ETag"]
    item.price_cents = 1234
    site.get_model_admin(type(item)).save_model(rf.post("/admin/"), item, form=None, change=True)
    fresh = kiosk_client.get("/api/public/menu", headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.json()["categories"][0]["menu_items"][0]["price_cents"] == 1234
    etag = fresh["ETag"]
    site.get_model_admin(type(group)).delete_model(rf.post("/admin/"), group)
    assert kiosk_client.get("/api/public/menu", headers={"If-None-Match": etag}).status_code == 200
