"""Bodies of sessions shared by responses, the OpenAPI schema and real-time messages. Each shape
is one builder function and, beside it, the serializer that documents it for the schema; tests
validate every builder's output against the published schema (docs/decisions.md "One definition
per shape")."""

from datetime import datetime

from rest_framework import serializers

from apps.accounts.models import User
from apps.core.body_fields import OptionalTextField
from apps.core.timefmt import iso_z
from apps.kiosks.bodies import KioskBrief, kiosk_brief
from apps.sessions.models import Session


class IdName(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()


# The schema of `incoming_session_body`.
class IncomingSessionOut(serializers.Serializer):
    id = serializers.CharField()
    kiosk = KioskBrief()
    business = IdName()
    created_at = serializers.DateTimeField()
    waiting_seconds = serializers.IntegerField()
    customer_locale = serializers.CharField(help_text="The customer's language, as the kiosk sent it (e.g. es-MX).")
    offer_expires_at = serializers.DateTimeField(help_text="When this agent's offer of the session lapses.")
    transfer_from = IdName(
        allow_null=True,
        help_text="A transfer offer: the colleague handing this active session on (accept takes it over); "
        "null for a waiting customer.",
    )


def incoming_session_body(
    session: Session, *, now: datetime, offer_expires_at: datetime, transfer_from: User | None = None
) -> dict:
    """The agent's offer: the one entry of GET /api/sessions/incoming and the SessionIncoming
    message's `session`, so a dashboard handles both the same way. `waiting_seconds` counts
    from `now`; `transfer_from`, the sender of a transfer offer."""
    sender = None if transfer_from is None else {"id": str(transfer_from.pk), "name": transfer_from.name}
    return {
        "id": session.public_id,
        "kiosk": kiosk_brief(session.kiosk),
        "business": {"id": str(session.business_id), "name": session.business.name},
        "created_at": iso_z(session.created_at),
        "waiting_seconds": max(0, int((now - session.created_at).total_seconds())),
        "customer_locale": session.customer_locale,
        "offer_expires_at": iso_z(offer_expires_at),
        "transfer_from": sender,
    }


class AgentBrief(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    avatar_url = OptionalTextField()


class QueueOut(serializers.Serializer):
    """The waiting line while the session is pending (apps/sessions/queue.py)."""

    position = serializers.IntegerField(help_text="1-based among the owner's waiting sessions, oldest first.")
    estimated_wait_seconds = serializers.IntegerField(
        allow_null=True, help_text="From recent answer and handle times and the agents signed in; null with no basis."
    )
    agents_available = serializers.IntegerField(help_text="Agents of the pool signed in and available.")


# The schema of `status_body`.
class StatusOut(serializers.Serializer):
    session_id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    agent = AgentBrief(allow_null=True)
    video_channel = serializers.CharField(source="public_id")
    created_at = serializers.DateTimeField()
    accepted_at = serializers.DateTimeField(allow_null=True)
    ended_at = serializers.DateTimeField(allow_null=True)
    duration_seconds = serializers.IntegerField(allow_null=True)
    end_reason = serializers.CharField()
    queue = QueueOut(allow_null=True, help_text="While pending: the customer's place in line; else null.")


def status_body(session: Session, *, queue: dict | None = None) -> dict:
    """The status poll's body and the SessionStatusChanged message (StatusOut documents it). Built
    directly: the poll is the hottest request, and a serializer costs as much as its query."""
    agent = session.agent
    brief = None if agent is None else {"id": str(agent.pk), "name": agent.name, "avatar_url": agent.avatar_url or None}
    return {
        "session_id": session.public_id,
        "status": session.status,
        "agent": brief,
        "video_channel": session.public_id,
        "created_at": iso_z(session.created_at),
        "accepted_at": iso_z(session.accepted_at),
        "ended_at": iso_z(session.ended_at),
        "duration_seconds": session.duration_seconds,
        "end_reason": session.end_reason,
        "queue": queue,
    }
