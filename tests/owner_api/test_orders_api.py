"""Owner API orders: the cursor-paginated list (orders:read) is /api/v1/orders' own query and
fields; fulfilment moves (orders:write) go through the order service and emit
order.status_changed; another owner's order is a 404."""

from apps.core.models import DomainEvent
from apps.orders.models import Order
from tests import factories
from tests.support.auth import error_of


def make_orders(business, count: int) -> list[Order]:
    orders = []
    for n in range(count):
        session = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
        status = "confirmed" if n % 2 else "completed"
        orders.append(
            factories.OrderFactory(
                session=session, number=str(100 + n), status=status, currency="USD", total_cents=1000 + n
            )
        )
    return orders


def test_the_list_pages_through_the_owners_orders_newest_first(api, business, stranger_order):
    orders = make_orders(business, 5)
    first = api.get("/api/owner/orders?limit=2")
    assert first.status_code == 200, first.content
    page = first.json()
    assert [row["id"] for row in page["results"]] == [orders[4].pk, orders[3].pk]
    row = page["results"][0]
    assert row["order_number"] == "104" and row["business"] == {"id": business.pk, "name": business.name}
    assert {"status", "total_cents", "lines", "payment", "session", "created_at"} <= set(row)
    seen = [r["id"] for r in page["results"]]
    next_url = page["next"]
    while next_url:
        assert next_url.startswith("http://testserver/api/owner/orders?")
        page = api.get(next_url).json()
        seen += [r["id"] for r in page["results"]]
        next_url = page["next"]
    assert seen == [o.pk for o in reversed(orders)]
    assert stranger_order.pk not in seen


def test_the_list_filters_like_the_token_api(api, business):
    orders = make_orders(business, 4)
    response = api.get("/api/owner/orders?status=confirmed")
    assert {row["id"] for row in response.json()["results"]} == {orders[1].pk, orders[3].pk}
    error = error_of(api.get("/api/owner/orders?status=nonsense"), 422, "VALIDATION_ERROR")
    assert "status" in error["details"]
    error_of(api.get("/api/owner/orders?limit=0"), 422, "VALIDATION_ERROR")


def test_a_fired_order_moves_through_fulfilment_with_events(api, confirmed_order):
    for status in ("preparing", "ready", "completed"):
        response = api.post(f"/api/owner/orders/{confirmed_order.pk}/status", {"status": status})
        assert response.status_code == 200, response.content
        body = response.json()["data"]
        assert body["id"] == confirmed_order.pk and body["status"] == status
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "completed"
    changes = [e.payload for e in DomainEvent.objects.filter(name="order.status_changed").order_by("pk")]
    assert [(c["previous_status"], c["status"]) for c in changes][-3:] == [
        ("confirmed", "preparing"),
        ("preparing", "ready"),
        ("ready", "completed"),
    ]


def test_a_move_the_state_machine_forbids_is_409(api, confirmed_order):
    api.post(f"/api/owner/orders/{confirmed_order.pk}/status", {"status": "ready"})
    error_of(api.post(f"/api/owner/orders/{confirmed_order.pk}/status", {"status": "preparing"}), 409, "INVALID_STATE")
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "ready"


def test_a_draft_order_cannot_be_fulfilled(api, cart_session):
    draft = Order.objects.get(session=cart_session)
    error_of(api.post(f"/api/owner/orders/{draft.pk}/status", {"status": "ready"}), 409, "INVALID_STATE")


def test_bad_status_input_is_422_with_details(api, confirmed_order):
    for body in ({"status": "refunded"}, {"status": "paid"}, {}, {"status": 3}):
        error = error_of(api.post(f"/api/owner/orders/{confirmed_order.pk}/status", body), 422, "VALIDATION_ERROR")
        assert "status" in error["details"], body
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "confirmed"


def test_another_owners_order_is_not_found(api, stranger_order):
    error_of(api.post(f"/api/owner/orders/{stranger_order.pk}/status", {"status": "ready"}), 404, "NOT_FOUND")
    error_of(api.post("/api/owner/orders/999999/status", {"status": "ready"}), 404, "NOT_FOUND")
    stranger_order.refresh_from_db()
    assert stranger_order.status == "confirmed"
    assert not DomainEvent.objects.filter(name="order.status_changed", owner=stranger_order.owner).exists()
