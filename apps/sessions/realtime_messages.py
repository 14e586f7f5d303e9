"""The real-time messages of session events (docs/realtime.md): subscribers of
config/event_subscribers.py. Built at emit, from the session as the transition left it; the
broadcast API sends them after commit, so a change that rolls back tells nobody."""

from django.db.models import Q

from apps.accounts.models import AgentStatus, User
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import agent_channel, kiosk_channel
from apps.sessions.bodies import incoming_session_body, status_body
from apps.sessions.domain_events import SessionAccepted, SessionEnded, SessionStarted
from apps.sessions.models import Session


def _agents_of(session: Session):
    """The session's owner's agents plus the platform's ownerless pool (DESIGN.md)."""
    return User.objects.filter(Q(owner_id=session.owner_id) | Q(owner__isnull=True), is_agent=True, is_active=True)


def eligible_agent_ids(session: Session) -> list[int]:
    """Who hears of a new session: the available agents of `_agents_of`."""
    return list(_agents_of(session).filter(agent_status=AgentStatus.AVAILABLE).values_list("pk", flat=True))


def session_status_changed(event, recorded: DomainEvent | None = None) -> None:
    """To the kiosk, after every transition: the body of GET /api/public/sessions/{id}/status."""
    session = event.session
    broadcast([kiosk_channel(session.kiosk_id)], "SessionStatusChanged", status_body(session))


def session_incoming(event: SessionStarted, recorded: DomainEvent | None = None) -> None:
    """To every eligible agent: the new session, as GET /api/sessions/incoming lists it."""
    session = event.session
    channels = [agent_channel(agent_id) for agent_id in eligible_agent_ids(session)]
    if channels:
        broadcast(channels, "SessionIncoming", {"session": incoming_session_body(session, now=session.created_at)})


def session_claimed(event: SessionAccepted, recorded: DomainEvent | None = None) -> None:
    """The winner's dashboard has its answer; every other agent who may have the card drops it."""
    session = event.session
    others = _agents_of(session).exclude(pk=session.agent_id).values_list("pk", flat=True)
    channels = [agent_channel(agent_id) for agent_id in others]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "agent_id": str(session.agent_id)}
        broadcast(channels, "SessionClaimed", body)


def session_withdrawn(event: SessionEnded, recorded: DomainEvent | None = None) -> None:
    """A session that ends while still waiting is withdrawn from the dashboards."""
    if not event.was_pending:
        return
    session = event.session
    channels = [agent_channel(agent_id) for agent_id in _agents_of(session).values_list("pk", flat=True)]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "reason": session.end_reason}
        broadcast(channels, "SessionWithdrawn", body)
