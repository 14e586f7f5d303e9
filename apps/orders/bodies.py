"""The order object of the spec (section 2), shared by the kiosk and agent APIs and by the
OrderUpdated message, so all three always say the same thing: each builder beside the serializer
that documents it for the schema (docs/decisions/api.md "One definition per shape")."""

from typing import Annotated, Generic, NotRequired, TypedDict, TypeVar

from apps.core.body_shapes import DateTimeText, Doc, serializer_for
from apps.core.timefmt import iso_z
from apps.orders.line_words import LineWords, lines_in_language, primary_language
from apps.orders.models import Order, OrderLine, OrderStatus, is_paid
from apps.sessions.models import Session


class ModifierBody(TypedDict):
    group: str
    value: str


class OrderLineBody(TypedDict):
    id: str
    menu_item_id: str | None
    name: str
    quantity: int
    unit_price_cents: int
    modifiers: list[ModifierBody]
    notes: NotRequired[str]
    customer_words: Annotated[
        LineWords | None,
        Doc(
            "The line's name and modifiers in the customer's language (the session's customer_locale) from the "
            "menu's translations, for the kiosk to show and the agent to read beside the line; null when they "
            "read the same as `name` and `modifiers`."
        ),
    ]


class AgentOrderLineBody(OrderLineBody):
    modifier_option_ids: Annotated[list[str], Doc("The chosen options, as POST /api/orders takes them back.")]


Line = TypeVar("Line", OrderLineBody, AgentOrderLineBody)


# The order object (a comment, not a docstring: docstrings become schema descriptions).
class OrderBody(TypedDict, Generic[Line]):
    session_id: str
    order_number: str | None
    status: str | None
    paid: Annotated[
        bool,
        Doc(
            "Whether the processor captured the payment and it stands (paid and each fulfilment status after; "
            "not refunded): the apps read this, never a list of statuses of their own."
        ),
    ]
    currency: str
    subtotal_cents: int
    tax_cents: int
    total_cents: int
    lines: list[Line]
    updated_at: DateTimeText


class KioskOrderBody(OrderBody[Line]):
    receipt_url: Annotated[
        str | None,
        Doc("Once the order is paid: its receipt page, an unguessable address opened without sign-in."),
    ]
    receipt_card_lines: Annotated[
        list[str],
        Doc(
            "Once the order is paid: how it was paid, as its receipt says it in the customer's language "
            '("Paid with: Visa ending 4242", "Card read: Contactless", a chip\'s application); empty before.'
        ),
    ]


ModifierOut = serializer_for(ModifierBody, "ModifierOut")
OrderLineOut = serializer_for(OrderLineBody, "OrderLineOut")
AgentOrderLineOut = serializer_for(AgentOrderLineBody, "AgentOrderLineOut")
OrderOut = serializer_for(OrderBody[OrderLineBody], "OrderOut")
KioskOrderOut = serializer_for(
    KioskOrderBody[OrderLineBody], "KioskOrderOut", "The order object plus its receipt's address."
)
AgentOrderOut = serializer_for(
    OrderBody[AgentOrderLineBody],
    "AgentOrderOut",
    "The order object plus each line's option ids, so a client can rebuild and resend the cart.",
)


def modifier_bodies(line: OrderLine) -> list[ModifierBody]:
    return [{"group": m["group"], "value": m["value"]} for m in line.modifiers]


def line_body(line: OrderLine, customer_words: LineWords | None) -> OrderLineBody:
    """A line of the order object; `customer_words` None when they read the same as the line's."""
    same = customer_words is None or (customer_words["name"], customer_words["modifiers"]) == (
        line.name,
        modifier_bodies(line),
    )
    body: OrderLineBody = {
        "id": str(line.pk),
        "menu_item_id": str(line.menu_item_id) if line.menu_item_id else None,
        "name": line.name,
        "quantity": line.quantity,
        "unit_price_cents": line.unit_price_cents,
        "modifiers": modifier_bodies(line),
        "customer_words": None if same else customer_words,
    }
    if line.notes:
        body["notes"] = line.notes
    return body


def order_body(session: Session, order: Order | None) -> OrderBody[OrderLineBody]:
    """The order of `session`; before the first cart an empty order in the business currency."""
    if order is None:
        return {
            "session_id": session.public_id,
            "order_number": None,
            "status": None,
            "paid": False,
            "currency": session.business.currency,
            "subtotal_cents": 0,
            "tax_cents": 0,
            "total_cents": 0,
            "lines": [],
            "updated_at": DateTimeText(iso_z(session.created_at)),
        }
    return {
        "session_id": session.public_id,
        "order_number": order.number,
        "status": order.status,
        "paid": is_paid(order.status),
        "currency": order.currency,
        "subtotal_cents": order.subtotal_cents,
        "tax_cents": order.tax_cents,
        "total_cents": order.total_cents,
        "lines": _line_bodies(list(order.lines.all()), session.customer_locale),
        "updated_at": DateTimeText(iso_z(order.updated_at)),
    }


def _line_bodies(lines: list[OrderLine], customer_locale: str) -> list[OrderLineBody]:
    words = lines_in_language(lines, primary_language(customer_locale)) if lines else {}
    return [line_body(line, words[line.pk]) for line in lines]


def agent_order_body(session: Session, order: Order | None) -> OrderBody[AgentOrderLineBody]:
    body = order_body(session, order)
    stored = list(order.lines.all()) if order is not None else []
    lines: list[AgentOrderLineBody] = [
        {**line, "modifier_option_ids": [str(m["option_id"]) for m in stored_line.modifiers if m.get("option_id")]}
        for line, stored_line in zip(body["lines"], stored, strict=True)
    ]
    return {**body, "lines": lines}


_PAYMENT_STATUS: dict[str, str] = {
    OrderStatus.DRAFT: "none",
    OrderStatus.AWAITING_PAYMENT: "pending",
    OrderStatus.FAILED: "failed",
    OrderStatus.REFUNDED: "refunded",
}


def payment_status(order: Order) -> str:
    """none, pending, failed, captured (paid and every fulfilment status after) or refunded."""
    return _PAYMENT_STATUS.get(order.status, "captured")
