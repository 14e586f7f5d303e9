"""Agent API for sessions: end, and the agent's own sessions (the live one with its order, one by
id, those accepted since a time). The incoming list, accept and transfer are routing's
(apps/routing/api/agent.py)."""

from datetime import UTC, datetime, time

from django.utils import timezone
from drf_spectacular.utils import extend_schema, extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import User
from apps.api.inputs import validated
from apps.billing import selectors as billing_selectors
from apps.billing.models import Payment, PaymentStatus
from apps.kiosks.bodies import KioskBrief
from apps.orders import selectors as order_selectors
from apps.orders.bodies import AgentOrderOut, agent_order_body
from apps.sessions import ending, pointing, selectors
from apps.sessions.api.pointing_shapes import MenuItemIn, SessionItemOut, session_item_body
from apps.sessions.bodies import IdName
from apps.sessions.models import Session
from apps.sessions.state_machine import AGENT_END_REASONS


class EndIn(serializers.Serializer[None]):
    reason = serializers.ChoiceField(choices=[str(reason) for reason in AGENT_END_REASONS])
    notes = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class EndedSessionOut(serializers.Serializer[Session]):
    id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    ended_at = serializers.DateTimeField()
    duration_seconds = serializers.IntegerField()


class EndView(AgentAPIView):
    @extend_schema(
        request=EndIn,
        responses={200: inline_serializer("EndOut", {"session": EndedSessionOut()})},
        summary="End a session (only the accepting agent)",
    )
    def post(self, request: AgentRequest, public_id: str) -> Response:
        data = validated(EndIn, request.data)
        session = ending.session_end(
            public_id=public_id, agent=request.user, reason=data["reason"], notes=data["notes"]
        )
        return Response({"session": EndedSessionOut(session).data})


class AgentSessionOut(serializers.Serializer[Session]):
    """A session as the agent who accepted it sees it."""

    id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    video_channel = serializers.CharField(source="public_id")
    kiosk = KioskBrief()
    business = IdName()
    created_at = serializers.DateTimeField()
    accepted_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    duration_seconds = serializers.IntegerField(allow_null=True)
    end_reason = serializers.CharField(allow_blank=True)
    customer_locale = serializers.CharField(help_text="The customer's language, as the kiosk sent it (e.g. es-MX).")
    handed_over_to = serializers.SerializerMethodField(
        help_text="The colleague serving it now, when you handed it over (a transfer): you see it read-only. "
        "Null while it is yours."
    )

    @extend_schema_field(IdName(allow_null=True))
    def get_handed_over_to(self, session: Session) -> dict[str, str] | None:
        viewer = self.context.get("agent")
        if viewer is None or session.agent_id in (None, viewer.pk) or session.agent is None:
            return None
        return {"id": str(session.agent_id), "name": session.agent.name}


class AgentPaymentOut(serializers.Serializer[Payment]):
    """The order's latest payment as the agent sees it: what became of the customer's card."""

    status = serializers.ChoiceField(choices=PaymentStatus.choices)
    failure_code = serializers.CharField(
        help_text="Why the last card was not taken, as the processor says it (e.g. card_declined, "
        'insufficient_funds, expired_card, incorrect_cvc, processing_error); "" unless failed.'
    )
    failure_message = serializers.CharField(help_text='The processor\'s words for it; "" unless failed.')


SessionWithOrderOut = inline_serializer(
    "AgentSessionWithOrder",
    {
        "session": AgentSessionOut(allow_null=True),
        "order": AgentOrderOut(allow_null=True),
        "payment": AgentPaymentOut(allow_null=True, help_text="The order's latest payment; null before any."),
    },
)


def _with_order(session: Session | None, viewer: User) -> dict[str, object]:
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
    @extend_schema(
        responses={200: SessionWithOrderOut},
        summary="The agent's live session (active or in payment) with its order; both null when there is none",
    )
    def get(self, request: AgentRequest) -> Response:
        return Response(_with_order(selectors.live_session_of_agent(request.user), request.user))


class SessionDetailView(AgentAPIView):
    @extend_schema(
        responses={200: SessionWithOrderOut},
        summary="One session this agent accepted or served, in any status, with its order (any other session is 404)",
        description="A session you handed to a colleague stays readable: `handed_over_to` names who serves it now.",
    )
    def get(self, request: AgentRequest, public_id: str) -> Response:
        session = selectors.session_accepted_by_agent(agent=request.user, public_id=public_id)
        return Response(_with_order(session, request.user))


class MySessionsIn(serializers.Serializer[None]):
    since = serializers.DateTimeField(
        required=False,
        help_text="Sessions accepted or taken over at or after this time (default: today, 00:00 UTC).",
    )
    limit = serializers.IntegerField(min_value=1, max_value=100, default=50)
    offset = serializers.IntegerField(min_value=0, max_value=100_000, default=0)


class MySessionOut(AgentSessionOut):
    total_cents = serializers.SerializerMethodField()
    currency = serializers.SerializerMethodField()

    def get_total_cents(self, session: Session) -> int | None:
        order = getattr(session, "order", None)
        return order.total_cents if order is not None else None

    def get_currency(self, session: Session) -> str:
        order = getattr(session, "order", None)
        return order.currency if order is not None else session.business.currency


class MySessionsView(AgentAPIView):
    @extend_schema(
        parameters=[MySessionsIn],
        responses={
            200: inline_serializer(
                "MySessionsPage",
                {
                    "data": MySessionOut(many=True),
                    "total": serializers.IntegerField(),
                    "next_offset": serializers.IntegerField(allow_null=True, help_text="The next page, or null."),
                },
            )
        },
        summary="The sessions this agent accepted or took over since a time (default today), newest first",
        description="Sessions you handed to a colleague are listed too, with `handed_over_to`.",
    )
    def get(self, request: AgentRequest) -> Response:
        query = validated(MySessionsIn, request.query_params)
        since = query.get("since") or datetime.combine(timezone.now().date(), time.min, tzinfo=UTC)
        sessions = selectors.sessions_accepted_by_agent_since(agent=request.user, since=since)
        total = sessions.count()
        start, end = query["offset"], query["offset"] + query["limit"]
        page = MySessionOut(sessions[start:end], many=True, context={"agent": request.user}).data  # type: ignore[arg-type]  # the stubs take one instance
        return Response({"data": page, "total": total, "next_offset": end if end < total else None})


class ShowItemView(AgentAPIView):
    @extend_schema(
        request=MenuItemIn,
        responses={200: SessionItemOut},
        summary="Show a menu item to the customer: the kiosk opens it large (MenuItemShown on its channel)",
        description="Only the session's agent, while it serves (active or in payment); the item must be on the "
        "active menu of the session's business (422 VALIDATION_ERROR on `item_id` otherwise). The cart is not "
        "changed.",
    )
    def post(self, request: AgentRequest, public_id: str) -> Response:
        data = validated(MenuItemIn, request.data)
        session, item = pointing.show_item(agent=request.user, public_id=public_id, item_id=int(data["item_id"]))
        return Response(session_item_body(session, item))
