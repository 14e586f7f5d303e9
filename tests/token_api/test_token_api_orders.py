"""GET /api/v1/orders (token API): the token owner's orders, newest first, cursor pagination,
filters, each order with its lines, totals, session and payment state; nothing of another owner."""

import base64
from datetime import timedelta
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from apps.orders import services as order_services
from apps.orders.models import Order, OrderStatus
from apps.sessions import services as session_services
from tests import factories
from tests.conftest import token_client_for
from tests.support.auth import error_of
from tests.support.orders import BASE, list_orders, make_order


def ids(response) -> list[int]:
    assert response.status_code == 200, response.content
    return [order["id"] for order in response.json()["results"]]


def walk(api: Client, **query) -> tuple[list[int], int]:
    """Follow `next` from the first page; returns every id seen and the number of pages."""
    response = list_orders(api, **query)
    seen, pages = ids(response), 1
    while response.json()["next"]:
        parts = urlsplit(response.json()["next"])
        assert parts.path == "/api/v1/orders"
        response = api.get(f"{parts.path}?{parts.query}")
        seen += ids(response)
        pages += 1
        assert pages < 100
    return seen, pages


# ----------------------------------------------------------------------------- shape


def test_orders_are_the_owners_newest_first(api, business, other_business):
    second_business = factories.BusinessFactory(owner=business.owner)
    old = make_order(business, created_at=BASE)
    new = make_order(second_business, created_at=BASE + timedelta(hours=2))
    middle = make_order(business, created_at=BASE + timedelta(hours=1))
    make_order(other_business, created_at=BASE + timedelta(hours=3))  # another owner's: never listed
    response = list_orders(api)
    assert ids(response) == [new.pk, middle.pk, old.pk]
    assert response.json()["next"] is None and response.json()["previous"] is None


def test_each_order_has_lines_totals_session_and_payment(api, business, agent):
    order = make_order(business, created_at=BASE, lines=2, agent=agent)
    [body] = list_orders(api).json()["results"]
    session = order.session
    assert body == {
        "id": order.pk,
        "order_number": order.number,
        "status": "confirmed",
        "business": {"id": business.pk, "name": business.name},
        "session": {
            "id": session.public_id,
            "status": "completed",
            "kiosk": {"id": session.kiosk_id, "name": session.kiosk.name},
            "agent": {"id": agent.pk, "name": agent.name},
        },
        "currency": "USD",
        "subtotal_cents": 2000,
        "tax_cents": 176,
        "total_cents": 2176,
        "payment": {"status": "captured"},
        "lines": [
            {
                "id": order.lines.get(position=0).pk,
                "menu_item_id": None,
                "name": "Item 0",
                "quantity": 1,
                "unit_price_cents": 1000,
                "modifiers": [{"group": "Size", "value": "Large"}],
                "notes": "no ice",
            },
            {
                "id": order.lines.get(position=1).pk,
                "menu_item_id": None,
                "name": "Item 1",
                "quantity": 2,
                "unit_price_cents": 1000,
                "modifiers": [{"group": "Size", "value": "Large"}],
            },
        ],
        "created_at": "2026-03-01T12:00:00Z",
        "updated_at": "2026-03-01T12:00:00Z",
    }


@pytest.mark.parametrize(
    "status,payment",
    [
        (OrderStatus.DRAFT, "none"),
        (OrderStatus.AWAITING_PAYMENT, "pending"),
        (OrderStatus.FAILED, "failed"),
        (OrderStatus.PAID, "captured"),
        (OrderStatus.COMPLETED, "captured"),
        (OrderStatus.REFUNDED, "refunded"),
    ],
)
def test_payment_state_follows_the_order_status(api, business, status, payment):
    make_order(business, created_at=BASE, status=status)
    [body] = list_orders(api).json()["results"]
    assert (body["status"], body["payment"]) == (status, {"status": payment})


def test_an_order_built_through_the_real_cart_flow_is_listed_with_its_lines(api, business, kiosk, agent):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=899)
    extras = factories.ModifierGroupFactory(item=burger, name="Extras", min=0, max=2)
    cheese = factories.ModifierOptionFactory(group=extras, name="Cheese", price_cents=100)
    pending = factories.SessionFactory(kiosk=kiosk)
    session = session_services.session_accept(public_id=pending.public_id, agent=agent)
    order_services.cart_replace(
        agent=agent,
        session_public_id=session.public_id,
        lines=[{"menu_item_id": str(burger.pk), "quantity": 2, "modifier_option_ids": [str(cheese.pk)], "notes": ""}],
    )
    [body] = list_orders(api).json()["results"]
    # (899 + 100) x 2 = 1998; tax 8.75 % = 174.8 -> 175
    assert (body["subtotal_cents"], body["tax_cents"], body["total_cents"]) == (1998, 175, 2173)
    assert body["status"] == "draft" and body["payment"] == {"status": "none"}
    assert body["session"]["id"] == session.public_id and body["session"]["status"] == "active"
    assert body["session"]["agent"] == {"id": agent.pk, "name": agent.name}
    [line] = body["lines"]
    assert line["menu_item_id"] == burger.pk and line["unit_price_cents"] == 999
    assert line["modifiers"] == [{"group": "Extras", "value": "Cheese"}]


def test_an_owner_without_orders_gets_an_empty_page(api):
    response = list_orders(api)
    assert response.json() == {"next": None, "previous": None, "results": []}


# ----------------------------------------------------------------------------- pagination


def test_default_page_is_50_and_limit_goes_up_to_200(api, business):
    for n in range(205):
        make_order(business, created_at=BASE + timedelta(seconds=n), lines=0)
    assert len(ids(list_orders(api))) == 50
    assert len(ids(list_orders(api, limit=200))) == 200
    assert len(ids(list_orders(api, limit=1))) == 1


@pytest.mark.parametrize("limit", ["0", "201", "-1", "ten", "1.5", "9" * 30])
def test_bad_limit_is_422(api, limit):
    error = error_of(list_orders(api, limit=limit), 422, "VALIDATION_ERROR")
    assert "limit" in error["details"]


def test_cursor_walks_every_order_once_without_gaps_or_duplicates(api, business):
    """Ties on created_at included: several orders share a timestamp across page borders."""
    orders = [make_order(business, created_at=BASE + timedelta(seconds=n // 3), lines=0) for n in range(23)]
    expected = [o.pk for o in sorted(orders, key=lambda o: (o.created_at, o.pk), reverse=True)]
    seen, pages = walk(api, limit=4)
    assert seen == expected
    assert pages == 6


def test_cursor_keeps_the_filters(api, business):
    for n in range(9):
        make_order(business, created_at=BASE + timedelta(seconds=n), status=["confirmed", "ready", "draft"][n % 3])
    seen, _ = walk(api, limit=2, status="ready")
    assert [Order.objects.get(pk=pk).status for pk in seen] == ["ready"] * 3


def test_orders_created_while_walking_are_neither_duplicated_nor_skipped(api, business):
    first = [make_order(business, created_at=BASE + timedelta(seconds=n), lines=0) for n in range(6)]
    response = list_orders(api, limit=3)
    page_one = ids(response)
    make_order(business, created_at=BASE + timedelta(hours=1), lines=0)  # newer: belongs before page one
    parts = urlsplit(response.json()["next"])
    page_two = ids(api.get(f"{parts.path}?{parts.query}"))
    assert page_one + page_two == [o.pk for o in reversed(first)]


def test_previous_link_walks_back(api, business):
    for n in range(6):
        make_order(business, created_at=BASE + timedelta(seconds=n), lines=0)
    first = list_orders(api, limit=3)
    parts = urlsplit(first.json()["next"])
    second = api.get(f"{parts.path}?{parts.query}")
    back = urlsplit(second.json()["previous"])
    assert ids(api.get(f"{back.path}?{back.query}")) == ids(first)


def _cursor(query: dict) -> str:
    return base64.b64encode(urlencode(query, doseq=True).encode()).decode()


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage",
        "%%%",
        _cursor({"o": ["x"]}),
        _cursor({"p": ["not-a-date"]}),
        _cursor({"p": ["2026-13-45 99:99:99"]}),
        _cursor({"p": ["1"], "r": ["1"]}),
        base64.b64encode(b"\xff\xfe").decode(),
        "A" * 501,
    ],
)
def test_tampered_cursor_is_422_not_500(api, business, cursor):
    make_order(business, created_at=BASE)
    error = error_of(list_orders(api, cursor=cursor), 422, "VALIDATION_ERROR")
    assert "cursor" in error["details"]


def test_a_real_cursor_with_its_position_edited_is_422(api, business):
    for n in range(3):
        make_order(business, created_at=BASE + timedelta(seconds=n), lines=0)
    next_url = list_orders(api, limit=1).json()["next"]
    cursor = parse_qs(urlsplit(next_url).query)["cursor"][0]
    decoded = parse_qs(base64.b64decode(cursor).decode())
    decoded["p"] = ["'; DROP TABLE orders_order; --"]
    error_of(list_orders(api, limit=1, cursor=_cursor(decoded)), 422, "VALIDATION_ERROR")
    assert Order.objects.count() == 3


# ----------------------------------------------------------------------------- filters


def test_empty_query_values_count_as_absent(api, business):
    """`?status=&limit=` (what an HTML form sends for blank fields) means no filter, default page."""
    order = make_order(business, created_at=BASE)
    assert ids(list_orders(api, status="", limit="", business="", created_after="", cursor="")) == [order.pk]


def test_filter_by_status(api, business):
    confirmed = make_order(business, created_at=BASE, status=OrderStatus.CONFIRMED)
    make_order(business, created_at=BASE + timedelta(seconds=1), status=OrderStatus.DRAFT)
    assert ids(list_orders(api, status="confirmed")) == [confirmed.pk]


def test_filter_by_business(api, business):
    second_business = factories.BusinessFactory(owner=business.owner)
    mine = make_order(business, created_at=BASE)
    make_order(second_business, created_at=BASE + timedelta(seconds=1))
    assert ids(list_orders(api, business=business.pk)) == [mine.pk]


def test_another_owners_business_as_filter_is_an_empty_list(api, business, other_business):
    """Decision (docs/decisions/webhooks.md): a filter narrows the owner's own orders, so an id outside
    them matches nothing: 200 with no results, the same answer as an unknown id."""
    make_order(business, created_at=BASE)
    make_order(other_business, created_at=BASE)
    response = list_orders(api, business=other_business.pk)
    assert ids(response) == [] and response.json()["next"] is None
    assert ids(list_orders(api, business=987654321)) == []


def test_filter_by_created_time_range(api, business):
    orders = [make_order(business, created_at=BASE + timedelta(hours=n), lines=0) for n in range(5)]
    after, before = (BASE + timedelta(hours=1)).isoformat(), (BASE + timedelta(hours=3)).isoformat()
    # created_after is inclusive, created_before exclusive.
    assert ids(list_orders(api, created_after=after, created_before=before)) == [orders[2].pk, orders[1].pk]
    assert ids(list_orders(api, created_after="2026-03-01T15:30:00Z")) == [orders[4].pk]
    assert ids(list_orders(api, created_before="2026-03-01T12:00:01Z")) == [orders[0].pk]


@pytest.mark.parametrize(
    "query",
    [
        {"status": "lost"},
        {"status": "DRAFT"},
        {"business": "abc"},
        {"business": "0"},
        {"business": "-3"},
        {"business": "9" * 40},
        {"created_after": "yesterday"},
        {"created_before": "2026-02-30T00:00:00Z"},
        {"created_after": "2026-03-01T12:00:00Z", "created_before": "2026-03-01T11:00:00Z"},
    ],
)
def test_bad_filter_is_422(api, business, query):
    make_order(business, created_at=BASE)
    error = error_of(list_orders(api, **query), 422, "VALIDATION_ERROR")
    assert error["details"]


# ----------------------------------------------------------------------------- access


def test_another_owners_agent_sees_only_its_own_orders(business, other_business):
    mine = make_order(business, created_at=BASE)
    theirs = make_order(other_business, created_at=BASE)
    other_api = token_client_for(factories.AgentFactory(owner=other_business.owner))
    assert ids(list_orders(other_api)) == [theirs.pk]
    assert ids(list_orders(token_client_for(factories.AgentFactory(owner=business.owner)))) == [mine.pk]


def test_orders_need_a_token(db):
    error_of(Client().get("/api/v1/orders"), 401, "UNAUTHENTICATED")


def test_orders_of_an_ownerless_agent_are_403(db):
    error = error_of(list_orders(token_client_for(factories.AgentFactory(owner=None))), 403, "FORBIDDEN")
    assert error["message"] == "Token not associated with an owner"


def test_orders_route_is_read_only(api):
    error_of(api.post("/api/v1/orders", {}, content_type="application/json"), 405, "METHOD_NOT_ALLOWED")


def test_orders_are_in_the_openapi_schema_with_their_parameters(db):
    schema = Client().get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/orders"]["get"]
    names = {parameter["name"] for parameter in operation["parameters"]}
    assert {"status", "business", "created_after", "created_before", "limit", "cursor"} <= names
    content = operation["responses"]["200"]["content"]["application/json"]["schema"]
    assert "$ref" in content or content.get("type") == "object", content


def test_timestamps_are_utc_with_z(api, business):
    make_order(business, created_at=timezone.now())
    [body] = list_orders(api).json()["results"]
    assert body["created_at"].endswith("Z") and body["updated_at"].endswith("Z")
