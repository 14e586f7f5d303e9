"""The kitchen display's API: a paid order is a ticket at once (and TicketChanged on the business's
kitchen channel), a move goes through the orders service so order.status_changed is recorded as from
the panel, and a display token sees its own business only."""

import hashlib

import pytest

from apps.core.models import DomainEvent
from apps.displays import services as display_services
from apps.displays.models import DisplayToken
from apps.orders.models import OrderStatus
from tests import factories
from tests.support.auth import error_of
from tests.support.displays import display_client, display_token
from tests.support.orders import BASE, make_order


def test_a_paid_order_is_a_ticket_with_its_lines_and_is_broadcast(display_broadcasts, confirmed_order, kitchen):
    tickets = kitchen.get("/api/displays/kitchen/tickets")
    assert tickets.status_code == 200, tickets.content
    [ticket] = tickets.json()["tickets"]
    assert ticket["id"] == str(confirmed_order.pk)
    assert ticket["number"] == confirmed_order.number
    assert ticket["status"] == "confirmed"
    assert ticket["dining"] is None
    assert [(line["name"], line["quantity"]) for line in ticket["lines"]] == [("Burger", 2)]
    assert ticket["paid_at"].endswith("Z")
    assert tickets.json()["truncated"] is False

    channels, event, data = display_broadcasts[0]
    assert (channels, event) == ([f"private-kitchen.{confirmed_order.business_id}"], "TicketChanged")
    assert data["ticket"]["id"] == str(confirmed_order.pk) and data["ticket"]["status"] == "confirmed"
    assert display_broadcasts[1][:2] == ([f"private-board.{confirmed_order.business_id}"], "BoardChanged")
    assert display_broadcasts[1][2]["status"] == "preparing"


def test_moves_go_through_fulfilment_and_fire_order_status_changed(display_broadcasts, confirmed_order, kitchen):
    for status in ("preparing", "ready", "completed"):
        moved = kitchen.post(
            f"/api/displays/kitchen/tickets/{confirmed_order.pk}/status",
            {"status": status},
            content_type="application/json",
        )
        assert moved.status_code == 200, moved.content
        assert moved.json()["status"] == status
    changes = [e.payload for e in DomainEvent.objects.filter(name="order.status_changed").order_by("pk")]
    assert [(c["previous_status"], c["status"]) for c in changes][-3:] == [
        ("confirmed", "preparing"),
        ("preparing", "ready"),
        ("ready", "completed"),
    ]
    assert kitchen.get("/api/displays/kitchen/tickets").json()["tickets"] == []  # completed: gone
    board_statuses = [data["status"] for _, event, data in display_broadcasts if event == "BoardChanged"]
    assert board_statuses == ["preparing", "preparing", "ready", "gone"]


def test_unhappy_moves_say_why(confirmed_order, kitchen):
    url = f"/api/displays/kitchen/tickets/{confirmed_order.pk}/status"
    error = error_of(kitchen.post(url, {"status": "cooking"}, content_type="application/json"), 422, "VALIDATION_ERROR")
    assert "status" in error["details"]
    error_of(kitchen.post(url, {}, content_type="application/json"), 422, "VALIDATION_ERROR")
    error_of(kitchen.post(url, "not json", content_type="application/json"), 400, "MALFORMED_REQUEST")
    assert kitchen.post(url, {"status": "completed"}, content_type="application/json").status_code == 200
    error_of(kitchen.post(url, {"status": "ready"}, content_type="application/json"), 409, "INVALID_STATE")
    error_of(
        kitchen.post("/api/displays/kitchen/tickets/abc/status", {"status": "ready"}, content_type="application/json"),
        404,
        "NOT_FOUND",
    )
    error_of(
        kitchen.post(
            "/api/displays/kitchen/tickets/999999/status", {"status": "ready"}, content_type="application/json"
        ),
        404,
        "NOT_FOUND",
    )
    error_of(kitchen.get(url), 405, "METHOD_NOT_ALLOWED")


def test_a_display_token_of_another_business_sees_nothing_of_this_one(confirmed_order, other_business):
    stranger = display_client(display_token(other_business, "kitchen"))
    assert stranger.get("/api/displays/kitchen/tickets").json()["tickets"] == []
    moved = stranger.post(
        f"/api/displays/kitchen/tickets/{confirmed_order.pk}/status",
        {"status": "ready"},
        content_type="application/json",
    )
    error_of(moved, 404, "NOT_FOUND")
    confirmed_order.refresh_from_db()
    assert confirmed_order.status == "confirmed"
    # A second business of the same owner is another screen too.
    sibling = factories.BusinessFactory(owner=confirmed_order.owner)
    sibling_screen = display_client(display_token(sibling, "kitchen"))
    assert sibling_screen.get("/api/displays/kitchen/tickets").json()["tickets"] == []
    error_of(
        sibling_screen.post(
            f"/api/displays/kitchen/tickets/{confirmed_order.pk}/status",
            {"status": "ready"},
            content_type="application/json",
        ),
        404,
        "NOT_FOUND",
    )
    auth = stranger.post(
        "/api/displays/broadcasting/auth",
        {"socket_id": "1.2", "channel_name": f"private-kitchen.{confirmed_order.business_id}"},
        content_type="application/json",
    )
    error_of(auth, 403, "FORBIDDEN")


def test_tokens_are_hashed_at_rest_and_revocable(business, owner):
    token, raw = display_services.display_token_create(
        business=business, kind="kitchen", name="Pass", ready_seconds=600, created_by=None
    )
    stored = DisplayToken.objects.get(pk=token.pk)
    assert stored.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    assert raw not in {stored.token_hash, stored.name}
    screen = display_client(raw)
    me = screen.get("/api/displays/me")
    assert me.status_code == 200, me.content
    assert me.json()["business"] == {"id": str(business.pk), "name": business.name}
    assert me.json()["screens"] == ["kitchen"]
    assert me.json()["channels"] == {"kitchen": f"private-kitchen.{business.pk}"}
    assert set(me.json()["settings"]) >= {"poll_seconds", "ticket_warn_seconds", "ticket_late_seconds"}
    stored.refresh_from_db()
    assert stored.last_used_at is not None

    display_services.display_token_revoke(owner_id=owner.pk, token_id=token.pk)
    error_of(screen.get("/api/displays/me"), 401, "UNAUTHENTICATED")
    error_of(display_client("nonsense").get("/api/displays/kitchen/tickets"), 401, "UNAUTHENTICATED")


def test_another_owner_cannot_revoke_a_token(business, other_business):
    token, _ = display_services.display_token_create(
        business=business, kind="board", name="Counter", ready_seconds=600, created_by=None
    )
    with pytest.raises(Exception) as refused:
        display_services.display_token_revoke(owner_id=other_business.owner_id, token_id=token.pk)
    assert getattr(refused.value, "code", None) == "NOT_FOUND"
    token.refresh_from_db()
    assert token.revoked_at is None


def test_a_board_token_cannot_open_the_kitchen(business, board):
    error_of(board.get("/api/displays/kitchen/tickets"), 403, "FORBIDDEN")
    order = make_order(business, created_at=BASE, status=OrderStatus.CONFIRMED)
    error_of(
        board.post(
            f"/api/displays/kitchen/tickets/{order.pk}/status", {"status": "ready"}, content_type="application/json"
        ),
        403,
        "FORBIDDEN",
    )
    auth = board.post(
        "/api/displays/broadcasting/auth",
        {"socket_id": "1.2", "channel_name": f"private-kitchen.{business.pk}"},
        content_type="application/json",
    )
    error_of(auth, 403, "FORBIDDEN")
    signed = board.post(
        "/api/displays/broadcasting/auth",
        {"socket_id": "1.2", "channel_name": f"private-board.{business.pk}"},
        content_type="application/json",
    )
    assert signed.status_code == 200, signed.content
    assert signed.json()["auth"].count(":") == 1


def test_without_a_token_or_session_the_screens_are_refused(client):
    error_of(client.get("/api/displays/me"), 401, "UNAUTHENTICATED")
    error_of(client.get("/api/displays/board"), 401, "UNAUTHENTICATED")
    error_of(client.get("/api/displays/nowhere"), 404, "NOT_FOUND")
