"""Webhook payloads of the session events (spec 6.1; shapes documented in docs/webhooks.md)."""

from typing import TypedDict

from django.utils import timezone

from apps.core.timefmt import iso_z
from apps.sessions.models import Session
from apps.sessions.pricing import cents_to_dollars, session_cost_cents


class SessionPayload(TypedDict):
    session_id: int
    session_public_id: str
    kiosk_id: int
    business_id: int


class SessionStartedPayload(SessionPayload):
    kiosk_name: str
    customer_locale: str
    created_at: str


class SessionAcceptedPayload(SessionPayload):
    agent_id: int | None
    agent_name: str | None
    accepted_at: str | None
    waiting_seconds: int


class SessionEndedPayload(SessionPayload):
    agent_id: int | None
    status: str
    reason: str
    duration_seconds: int | None
    cost_cents: int
    cost_dollars: str
    ended_at: str | None


def _base(session: Session) -> SessionPayload:
    return {
        "session_id": session.pk,
        "session_public_id": session.public_id,
        "kiosk_id": session.kiosk_id,
        "business_id": session.business_id,
    }


def session_started(session: Session) -> SessionStartedPayload:
    return {
        **_base(session),
        "kiosk_name": session.kiosk.name,
        "customer_locale": session.customer_locale,
        "created_at": iso_z(session.created_at),
    }


def session_accepted(session: Session) -> SessionAcceptedPayload:
    waited = (session.accepted_at or timezone.now()) - session.created_at
    return {
        **_base(session),
        "agent_id": session.agent_id,
        "agent_name": session.agent.name if session.agent else None,
        "accepted_at": iso_z(session.accepted_at),
        "waiting_seconds": max(0, int(waited.total_seconds())),
    }


def session_ended(session: Session) -> SessionEndedPayload:
    cost_cents = session_cost_cents(session)
    return {
        **_base(session),
        "agent_id": session.agent_id,
        "status": session.status,
        "reason": session.end_reason,
        "duration_seconds": session.duration_seconds,
        "cost_cents": cost_cents,
        "cost_dollars": cents_to_dollars(cost_cents),
        "ended_at": iso_z(session.ended_at),
    }
