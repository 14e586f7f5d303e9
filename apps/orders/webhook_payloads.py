"""Webhook payloads of the order and payment events (spec 6.1; docs/webhooks.md)."""

from decimal import Decimal
from typing import TypedDict

from django.utils import timezone

from apps.core.timefmt import iso_z
from apps.orders.models import Order

ZERO_DECIMAL_CURRENCIES = {"BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV"}


def major_units(amount_cents: int, currency: str) -> float:
    """Minor units to a JSON decimal number in major units (the spec's `total`)."""
    if currency.upper() in ZERO_DECIMAL_CURRENCIES:
        return float(amount_cents)
    return float(Decimal(amount_cents) / 100)


class OrderCreatedItem(TypedDict):
    name: str
    quantity: int
    options: list[str]


class OrderCreatedPayload(TypedDict):
    order_id: int
    order_number: str
    total: float
    currency: str
    items_count: int
    items: list[OrderCreatedItem]
    agent_name: str
    kiosk_name: str
    status: str
    created_at: int
    dining: str | None  # beyond the spec's payload: eat_in, take_away, or null when not asked


class OrderStatusChangedPayload(TypedDict):
    order_id: int
    order_number: str
    previous_status: str
    status: str
    changed_at: str


class PaymentCapturedPayload(TypedDict):
    order_id: int
    order_number: str
    payment_intent_id: str
    amount_cents: int
    amount: float
    currency: str
    captured_at: str


def order_created(order: Order) -> OrderCreatedPayload:
    lines = list(order.lines.all())
    session = order.session
    return {
        "order_id": order.pk,
        "order_number": order.number,
        "total": major_units(order.total_cents, order.currency),
        "currency": order.currency,
        "items_count": sum(line.quantity for line in lines),
        "items": [
            {"name": line.name, "quantity": line.quantity, "options": [m["option_id"] for m in line.modifiers]}
            for line in lines
        ],
        "agent_name": session.agent.name if session.agent else "",
        "kiosk_name": session.kiosk.name,
        "status": order.status,
        "created_at": int(order.created_at.timestamp()),
        "dining": order.dining or None,
    }


def order_status_changed(order: Order, previous: str) -> OrderStatusChangedPayload:
    return {
        "order_id": order.pk,
        "order_number": order.number,
        "previous_status": previous,
        "status": order.status,
        "changed_at": iso_z(timezone.now()),
    }


def payment_captured(order: Order, *, intent_id: str, amount_cents: int) -> PaymentCapturedPayload:
    return {
        "order_id": order.pk,
        "order_number": order.number,
        "payment_intent_id": intent_id,
        "amount_cents": amount_cents,
        "amount": major_units(amount_cents, order.currency),
        "currency": order.currency,
        "captured_at": iso_z(timezone.now()),
    }
