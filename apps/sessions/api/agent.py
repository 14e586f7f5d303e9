"""Agent API for sessions: end, the agent's own sessions since a time, showing a menu item,
reading the cart aloud on the kiosk, and the menu of the live session's business. The incoming
list, accept and transfer are routing's (apps/routing/api/agent.py); the live session and one
session by id, each with its order and payment, are the dashboard's (apps/agent_app/api/sessions.py)."""

from datetime import UTC, datetime, time
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.api.operations import Answer, Data, operation
from apps.kiosks.bodies import KioskBrief
from apps.menu import selectors as menu_selectors
from apps.menu.bodies import MenuOut, menu_body
from apps.sessions import ending, pointing, selectors
from apps.sessions.api.pointing_shapes import MenuItemIn, SessionItemOut, session_item_body
from apps.sessions.bodies import IdName
from apps.sessions.models import Medium, Session
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
    @operation(Answer(inline_serializer("EndOut", {"session": EndedSessionOut()})), body=EndIn)
    def post(self, request: AgentRequest, public_id: str, data: Data) -> dict[str, Session]:
        """End a session (only the accepting agent)"""
        session = ending.session_end(
            public_id=public_id, agent=request.user, reason=data["reason"], notes=data["notes"]
        )
        return {"session": session}


# What the agent's bodies of a session start with: its id, status and video channel (its id). A
# comment, not a docstring: a docstring would become the description of the bodies built on it.
class SessionCallOut(serializers.Serializer[Session]):
    id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    video_channel = serializers.CharField(source="public_id")


class AgentSessionOut(SessionCallOut):
    """A session as the agent who accepted it sees it."""

    kiosk = KioskBrief()
    business = IdName()
    created_at = serializers.DateTimeField()
    accepted_at = serializers.DateTimeField()
    ended_at = serializers.DateTimeField(allow_null=True)
    duration_seconds = serializers.IntegerField(allow_null=True)
    end_reason = serializers.CharField(allow_blank=True)
    customer_locale = serializers.CharField(help_text="The customer's language, as the kiosk sent it (e.g. es-MX).")
    medium = serializers.ChoiceField(
        choices=Medium.values,
        help_text="video: the customer is on camera (an active one is the agent's video conversation); "
        "chat: the customer only writes (the session's chat).",
    )
    accessible_mode = serializers.BooleanField(
        help_text="The customer uses the kiosk's accessible mode and may not see the screen (the dashboard says so; "
        "POST .../read-aloud has the kiosk speak the cart)."
    )
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
    @operation(
        Answer(
            inline_serializer(
                "MySessionsPage",
                {
                    "data": MySessionOut(many=True),
                    "total": serializers.IntegerField(),
                    "next_offset": serializers.IntegerField(allow_null=True, help_text="The next page, or null."),
                },
            )
        ),
        query=MySessionsIn,
    )
    def get(self, request: AgentRequest, query: Data) -> Response:
        """The sessions this agent accepted or took over since a time (default today), newest first

        Sessions you handed to a colleague are listed too, with `handed_over_to`."""
        since = query.get("since") or datetime.combine(timezone.now().date(), time.min, tzinfo=UTC)
        sessions = selectors.sessions_accepted_by_agent_since(agent=request.user, since=since)
        total = sessions.count()
        start, end = query["offset"], query["offset"] + query["limit"]
        # Rendered here: the rows say who holds a session handed over, as this agent sees it.
        page = MySessionOut(sessions[start:end], many=True, context={"agent": request.user}).data  # type: ignore[arg-type]  # the stubs take one instance
        return Response({"data": page, "total": total, "next_offset": end if end < total else None})


class ShowItemView(AgentAPIView):
    @operation(Answer(SessionItemOut()), body=MenuItemIn)
    def post(self, request: AgentRequest, public_id: str, data: Data) -> dict[str, str]:
        """Show a menu item to the customer: the kiosk opens it large (MenuItemShown on its channel)

        Only the agent holding the session (403 SESSION_NOT_OWNED once handed to a colleague),
        while it serves (active or in payment); the item must be on the active menu of the
        session's business (422 VALIDATION_ERROR on `item_id` otherwise). The cart is not
        changed."""
        session, item = pointing.show_item(agent=request.user, public_id=public_id, item_id=int(data["item_id"]))
        return session_item_body(session, item)


class MenuView(AgentAPIView):
    @operation(Answer(MenuOut(), built=True))
    def get(self, request: AgentRequest) -> dict[str, Any]:
        """The active menu of the business of the agent's live session"""
        session = selectors.current_session_for_agent(request.user)
        categories = menu_selectors.active_catalog_categories(business_id=session.business_id)
        return menu_body(categories, request=request)


class ReadAloudOut(serializers.Serializer[None]):
    session_id = serializers.CharField()


class ReadAloudView(AgentAPIView):
    @operation(Answer(ReadAloudOut()))
    def post(self, request: AgentRequest, public_id: str) -> dict[str, str]:
        """Have the kiosk speak the cart and its total to the customer (CartReadAloud on its channel)

        For a customer who may not see the screen (`accessible_mode`), and any other: the kiosk
        speaks its cart line by line and the total in the customer's language, whether or not its
        accessible mode is on. Only the agent serving the session, while it serves (active or in
        payment): another agent's or owner's session is 404, one handed to a colleague 403
        SESSION_NOT_OWNED, a waiting one 409 INVALID_STATE, an ended one 409
        SESSION_ALREADY_ENDED. Nothing changes; a kiosk without its real-time link does not hear
        it."""
        session = pointing.read_cart_aloud(agent=request.user, public_id=public_id)
        return {"session_id": session.public_id}
