"""Kiosk API: GET /sessions/{id}/order, the cart as it was last sent; POST replaces it while the
customer orders alone (self-service: nobody answered), with the agent's request lines and rules;
GET and POST /sessions/{id}/dining, the customer's eat in or take away before paying;
POST /sessions/{id}/receipt, the paid order's receipt mailed to the customer."""

from django.db import transaction
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from apps.api.operations import Answer, Data, operation
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.kiosks.models import Kiosk
from apps.orders import receipt_mails, receipts, selectors, services
from apps.orders.api.agent import OrderLineIn
from apps.orders.bodies import (
    AgentOrderLineBody,
    AgentOrderOut,
    KioskOrderBody,
    KioskOrderOut,
    OrderBody,
    OrderLineBody,
    agent_order_body,
    order_body,
)
from apps.orders.models import Dining, Order
from apps.sessions import selectors as session_selectors


class KioskOrderIn(serializers.Serializer[None]):
    # The agent's OrderIn without session_id (the path names the session).
    lines: serializers.ListSerializer[None] = serializers.ListSerializer(
        child=OrderLineIn(), max_length=100, allow_empty=True
    )


class SessionOrderView(KioskAPIView):
    @operation(Answer(KioskOrderOut(), built=True))
    def get(self, request: KioskRequest, public_id: str) -> KioskOrderBody[OrderLineBody]:
        """The session's current order (empty before the first cart), with its receipt once paid"""
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        session.business = request.auth.business
        order = selectors.order_for_session(session)
        path = receipts.receipt_path(order) if order is not None else None
        return {
            **order_body(session, order),
            "receipt_url": request.build_absolute_uri(path) if path else None,
            "receipt_card_lines": receipts.card_lines(receipts.receipt_context(order)) if path and order else [],
        }

    @operation(Answer(AgentOrderOut(), built=True), body=KioskOrderIn)
    def post(self, request: KioskRequest, public_id: str, data: Data) -> OrderBody[AgentOrderLineBody]:
        """Self-service: replace the whole cart while no agent has joined

        The customer orders alone while the session waits (pending): the same request lines,
        replace semantics, server totals and 422 VALIDATION_ERROR rules as the agent's POST
        /api/orders, and OrderUpdated to the kiosk. The answer is the agent's order body (each
        line with its modifier_option_ids), so the kiosk can resend the cart with one line
        changed. 409 SESSION_ALREADY_ACCEPTED once an agent has accepted (the cart is the agent's
        from then on), 409 ORDER_LOCKED while the customer pays, 409 SESSION_ALREADY_ENDED after
        the end; another kiosk's session is 404 SESSION_NOT_FOUND."""
        session, order = services.cart_replace_by_kiosk(
            kiosk=request.auth, session_public_id=public_id, lines=data["lines"]
        )
        return agent_order_body(session, order)


class DiningIn(serializers.Serializer[None]):
    dining = serializers.ChoiceField(choices=Dining.values)


DiningOut = inline_serializer(
    "DiningOut",
    {
        "ask": serializers.BooleanField(help_text="Whether the kiosk asks (the owner may turn the question off)."),
        "dining": serializers.ChoiceField(choices=Dining.values, allow_null=True),
    },
)


def _dining_body(kiosk: Kiosk, order: Order | None) -> dict[str, object]:
    """DiningOut: whether this kiosk's business asks, and the answer (null: none yet, or no order)."""
    return {"ask": selectors.asks_dining(kiosk.business_id), "dining": (order.dining or None) if order else None}


class SessionDiningView(KioskAPIView):
    @operation(Answer(DiningOut))
    def get(self, request: KioskRequest, public_id: str) -> dict[str, object]:
        """Whether to ask eat in or take away, and the answer so far"""
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        return _dining_body(request.auth, selectors.order_for_session(session))

    @operation(Answer(DiningOut), body=DiningIn)
    def post(self, request: KioskRequest, public_id: str, data: Data) -> dict[str, object]:
        """The customer chooses eat in or take away"""
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        order = services.order_set_dining(session=session, dining=data["dining"])
        return _dining_body(request.auth, order)


class ReceiptEmailIn(serializers.Serializer[None]):
    email = serializers.EmailField(max_length=254)


class SessionReceiptView(KioskAPIView):
    @operation(Answer(None, 202), body=ReceiptEmailIn)
    def post(self, request: KioskRequest, public_id: str, data: Data) -> None:
        """Email me the receipt: mail the paid order's receipt to the customer's address

        Answered 202 once the mail is queued: a worker sends it (text and HTML, in the customer's
        language) and tries again while the mail server fails. The address is not kept after
        sending unless the business's order settings say so. 422 VALIDATION_ERROR for a bad
        address, 409 INVALID_STATE while the order is not paid (no receipt yet), 404
        SESSION_NOT_FOUND for another kiosk's session, 429 RATE_LIMITED once the order's receipt
        was mailed RECEIPT_EMAILS_PER_ORDER times (3) within the hour."""
        with transaction.atomic():
            receipt_mails.receipt_email_request(kiosk=request.auth, session_public_id=public_id, email=data["email"])
