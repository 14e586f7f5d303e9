"""Owner API menu items (menu:write): availability, stock and the low-stock threshold, saved
by the menu service with the model's own validation; another owner's item is a 404."""

import pytest

from apps.core.errors import DomainError
from apps.menu.models import MenuItem
from apps.orders import services as order_services
from apps.sessions import services as session_services
from tests import factories
from tests.support.auth import error_of


def item_of(business, **fields) -> MenuItem:
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    return factories.MenuItemFactory(category=category, **fields)


def test_setting_stock_turns_tracking_on_and_zero_sells_the_item_out(api, business):
    item = item_of(business, name="Fries")
    response = api.patch(f"/api/owner/menu/items/{item.pk}", {"stock": 12, "low_stock_threshold": 3})
    assert response.status_code == 200, response.content
    assert response.json()["data"] == {
        "id": item.pk,
        "name": "Fries",
        "price_cents": item.price_cents,
        "active": True,
        "track_stock": True,
        "stock": 12,
        "low_stock_threshold": 3,
        "sold_out": False,
    }
    assert api.patch(f"/api/owner/menu/items/{item.pk}", {"stock": 0}).json()["data"]["sold_out"] is True
    item.refresh_from_db()
    assert (item.track_stock, item.stock, item.low_stock_threshold) == (True, 0, 3)


def test_availability_and_tracking_can_be_switched_off(api, business):
    item = item_of(business, track_stock=True, stock=0, low_stock_threshold=2)
    body = api.patch(
        f"/api/owner/menu/items/{item.pk}", {"active": False, "track_stock": False, "low_stock_threshold": None}
    ).json()["data"]
    assert body["active"] is False and body["track_stock"] is False and body["sold_out"] is False
    item.refresh_from_db()
    assert (item.active, item.track_stock, item.low_stock_threshold, item.stock) == (False, False, None, 0)


def test_an_inactive_item_is_refused_in_carts(api, business, agent, kiosk):
    item = item_of(business)
    api.patch(f"/api/owner/menu/items/{item.pk}", {"active": False})
    session = session_services.session_accept(public_id=factories.SessionFactory(kiosk=kiosk).public_id, agent=agent)
    line = {"menu_item_id": str(item.pk), "quantity": 1, "modifier_option_ids": [], "notes": ""}
    with pytest.raises(DomainError) as refused:
        order_services.cart_replace(agent=agent, session_public_id=session.public_id, lines=[line])
    assert refused.value.code == "VALIDATION_ERROR"


def test_bad_input_is_422_with_details_and_changes_nothing(api, business):
    item = item_of(business, track_stock=True, stock=5)
    for body, field in (
        ({"stock": -1}, "stock"),
        ({"stock": "many"}, "stock"),
        ({"low_stock_threshold": -2}, "low_stock_threshold"),
        ({"active": "perhaps"}, "active"),
        ({}, "non_field_errors"),
    ):
        error = error_of(api.patch(f"/api/owner/menu/items/{item.pk}", body), 422, "VALIDATION_ERROR")
        assert field in error["details"], (body, error)
    item.refresh_from_db()
    assert (item.stock, item.active) == (5, True)


def test_another_owners_item_is_not_found(api, other_business):
    item = item_of(other_business, track_stock=True, stock=5)
    error_of(api.patch(f"/api/owner/menu/items/{item.pk}", {"stock": 0}), 404, "NOT_FOUND")
    error_of(api.patch("/api/owner/menu/items/999999", {"stock": 0}), 404, "NOT_FOUND")
    item.refresh_from_db()
    assert item.stock == 5
