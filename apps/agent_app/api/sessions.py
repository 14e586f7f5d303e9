"""Agent API: the agent's live session and one session by id, each with its order and its latest
payment: the dashboard's one read of a session, composed here above sessions, orders and billing
(sessions import neither)."""

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import User
from apps.api.operations import Answer, operation
from apps.billing import selectors as billing_selectors
from apps.billing.api.kiosk import KioskReaderOut
from apps.billing.models import Payment, PaymentStatus
from apps.orders import selectors as order_selectors
from apps.orders.bodies import AgentOrderOut, agent_order_body
from apps.sessions import selectors
from apps.sessions.api.agent import AgentSessionOut
from apps.sessions.models import Session


class AgentPaymentOut(serializers.Serializer[Payment]):
    """The order's latest payment as the agent sees it: what became of the customer's card."""

    status = serializers.ChoiceField(choices=PaymentStatus.choices)
    failure_code = serializers.CharField(
        help_text="Why the last card was not taken, as the processor says it (e.g. card_declined, "
        'insufficient_funds, expired_card, incorrect_cvc, processing_error); "" unless failed.'
    )
    failure_message = serializers.CharField(help_text='The processor\'s words for it; "" unless failed.')
    method = serializers.ChoiceField(
        choices=["card_present", "card"],
        help_text="card_present: the customer pays on the kiosk's card reader; card: with the kiosk's card fields.",
    )
    reader = serializers.SerializerMethodField()

    @extend_schema_field(KioskReaderOut(allow_null=True))
    def get_reader(self, payment: Payment) -> billing_selectors.ReaderBrief | None:
        return billing_selectors.reader_of_payment(payment)


SessionWithOrderOut = inline_serializer(
    "AgentSessionWithOrder",
    {
        "session": AgentSessionOut(allow_null=True),
        "order": AgentOrderOut(allow_null=True),
        "payment": AgentPaymentOut(allow_null=True, help_text="The order's latest payment; null before any."),
    },
)


CurrentSessionOut = inline_serializer(
    "AgentCurrentSessions",
    {
        "session": AgentSessionOut(allow_null=True),
        "order": AgentOrderOut(allow_null=True),
        "payment": AgentPaymentOut(allow_null=True, help_text="The order's latest payment; null before any."),
        # The same component as one session's read (the inline serializer's class), listed.
        "held": SessionWithOrderOut.__class__(
            many=True,
            help_text="Every session the agent holds (active or in payment), each with its order and payment, "
            "`session` first: an agent serving several customers restores them all from this one read.",
        ),
    },
)


def session_read(session: Session | None, viewer: User) -> dict[str, object]:
    """A session as `viewer` (its agent) reads it: GET /api/sessions/{id}'s body, one entry of
    GET /api/sessions/current's `held`, and the real-time SessionUpdated's data (one shape)."""
    if session is None:
        return {"session": None, "order": None, "payment": None}
    order = order_selectors.order_for_session(session)
    payment = billing_selectors.payments_of_order(order).last() if order is not None else None
    return {
        "session": AgentSessionOut(session, context={"agent": viewer}).data,
        "order": agent_order_body(session, order),
        "payment": AgentPaymentOut(payment).data if payment is not None else None,
    }


class CurrentSessionView(AgentAPIView):
    @operation(Answer(CurrentSessionOut, built=True))
    def get(self, request: AgentRequest) -> dict[str, object]:
        """The agent's live session (active or in payment) with its order; both null when there is none

        `held` lists every session the agent holds, `session` first (empty when it holds none)."""
        held = [session_read(session, request.user) for session in selectors.held_sessions_of_agent(request.user)]
        first = held[0] if held else session_read(None, request.user)
        return {**first, "held": held}


class SessionDetailView(AgentAPIView):
    @operation(Answer(SessionWithOrderOut, built=True))
    def get(self, request: AgentRequest, public_id: str) -> dict[str, object]:
        """One session this agent accepted or served, in any status, with its order (any other session is 404)

        A session you handed to a colleague stays readable: `handed_over_to` names who serves it
        now."""
        session = selectors.session_accepted_by_agent(agent=request.user, public_id=public_id)
        return session_read(session, request.user)
