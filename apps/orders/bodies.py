"""The order object of the spec (section 2), shared by the kiosk and agent APIs and by the
OrderUpdated message, so all three always say the same thing: each builder beside the serializer
that documents it for the schema (docs/decisions.md "One definition per shape")."""

from rest_framework import serializers

from apps.core.timefmt import iso_z
from apps.orders.models import Order, OrderLine, OrderStatus
from apps.sessions.models import Session


class ModifierOut(serializers.Serializer):
    group = serializers.CharField()
    value = serializers.CharField()


class OrderLineOut(serializers.Serializer):
    id = serializers.CharField()
    menu_item_id = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    quantity = serializers.IntegerField()
    unit_price_cents = serializers.IntegerField()
    modifiers = ModifierOut(many=True)
    notes = serializers.CharField(required=False)


# The schema of `order_body` (a comment, not a docstring: docstrings become schema descriptions).
class OrderOut(serializers.Serializer):
    session_id = serializers.CharField()
    order_number = serializers.CharField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    currency = serializers.CharField()
    subtotal_cents = serializers.IntegerField()
    tax_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()
    lines = OrderLineOut(many=True)
    updated_at = serializers.DateTimeField()


def line_body(line: OrderLine) -> dict:
    body = {
        "id": str(line.pk),
        "menu_item_id": str(line.menu_item_id) if line.menu_item_id else None,
        "name": line.name,
        "quantity": line.quantity,
        "unit_price_cents": line.unit_price_cents,
        "modifiers": [{"group": m["group"], "value": m["value"]} for m in line.modifiers],
    }
    if line.notes:
        body["notes"] = line.notes
    return body


def order_body(session: Session, order: Order | None) -> dict:
    """The order of `session`; before the first cart an empty order in the business currency."""
    if order is None:
        return {
            "session_id": session.public_id,
            "order_number": None,
            "status": None,
            "currency": session.business.currency,
            "subtotal_cents": 0,
            "tax_cents": 0,
            "total_cents": 0,
            "lines": [],
            "updated_at": iso_z(session.created_at),
        }
    return {
        "session_id": session.public_id,
        "order_number": order.number,
        "status": order.status,
        "currency": order.currency,
        "subtotal_cents": order.subtotal_cents,
        "tax_cents": order.tax_cents,
        "total_cents": order.total_cents,
        "lines": [line_body(line) for line in order.lines.all()],
        "updated_at": iso_z(order.updated_at),
    }


class AgentOrderLineOut(OrderLineOut):
    modifier_option_ids = serializers.ListField(
        child=serializers.CharField(), help_text="The chosen options, as POST /api/orders takes them back."
    )


class AgentOrderOut(OrderOut):
    """The order object plus each line's option ids, so a client can rebuild and resend the cart."""

    lines = AgentOrderLineOut(many=True)


def agent_order_body(session: Session, order: Order | None) -> dict:
    body = order_body(session, order)
    stored = list(order.lines.all()) if order is not None else []
    for line, stored_line in zip(body["lines"], stored, strict=True):
        line["modifier_option_ids"] = [str(m["option_id"]) for m in stored_line.modifiers if m.get("option_id")]
    return body


_PAYMENT_STATUS = {
    OrderStatus.DRAFT: "none",
    OrderStatus.AWAITING_PAYMENT: "pending",
    OrderStatus.FAILED: "failed",
    OrderStatus.REFUNDED: "refunded",
}


def payment_status(order: Order) -> str:
    """none, pending, failed, captured (paid and every fulfilment status after) or refunded."""
    return _PAYMENT_STATUS.get(order.status, "captured")
