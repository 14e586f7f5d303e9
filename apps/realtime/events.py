"""The real-time events of sessions, kiosks and orders (payloads in docs/realtime.md).

Services call these inside their transaction; `broadcast` sends after commit, so a change that
rolls back tells nobody. Payment events are in apps/billing/kiosk_events.py.
"""

from datetime import datetime

from django.db.models import Q

from apps.accounts.models import AgentStatus, User
from apps.core.timefmt import iso_z
from apps.kiosks.models import Kiosk
from apps.realtime.broadcast import broadcast
from apps.sessions.models import Session


def agent_channel(agent_id: int) -> str:
    return f"private-agent.{agent_id}"


def kiosk_channel(kiosk_id: int) -> str:
    return f"private-kiosk.{kiosk_id}"


def owner_channel(owner_id: int) -> str:
    return f"presence-owner.{owner_id}"


def _agents_of(session: Session):
    """The session's owner's agents plus the platform's ownerless pool (DESIGN.md)."""
    return User.objects.filter(Q(owner_id=session.owner_id) | Q(owner__isnull=True), is_agent=True, is_active=True)


def eligible_agent_ids(session: Session) -> list[int]:
    """Who hears of a new session: the available agents of `_agents_of`."""
    return list(_agents_of(session).filter(agent_status=AgentStatus.AVAILABLE).values_list("pk", flat=True))


def _kiosk_brief(kiosk: Kiosk) -> dict:
    return {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location}


def incoming_session_body(session: Session) -> dict:
    """One entry of GET /api/sessions/incoming, so a dashboard handles both the same way."""
    return {
        "id": session.public_id,
        "kiosk": _kiosk_brief(session.kiosk),
        "business": {"id": str(session.business_id), "name": session.business.name},
        "created_at": iso_z(session.created_at),
        "waiting_seconds": 0,
    }


def session_status_changed(session: Session) -> None:
    """To the kiosk: the body of GET /api/public/sessions/{id}/status, after every transition."""
    from apps.sessions.payloads import status_body  # the poll's own body: one shape for both

    broadcast([kiosk_channel(session.kiosk_id)], "SessionStatusChanged", status_body(session))


def session_started(session: Session) -> None:
    channels = [agent_channel(agent_id) for agent_id in eligible_agent_ids(session)]
    if channels:
        broadcast(channels, "SessionIncoming", {"session": incoming_session_body(session)})
    session_status_changed(session)


def session_accepted(session: Session) -> None:
    """The winner's dashboard has its answer; every other agent who may have the card drops it."""
    others = _agents_of(session).exclude(pk=session.agent_id).values_list("pk", flat=True)
    channels = [agent_channel(agent_id) for agent_id in others]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "agent_id": str(session.agent_id)}
        broadcast(channels, "SessionClaimed", body)
    session_status_changed(session)


def session_closed(session: Session, *, was_pending: bool) -> None:
    """Ended in any way. A session that ends while still waiting is withdrawn from dashboards."""
    if was_pending:
        channels = [agent_channel(agent_id) for agent_id in _agents_of(session).values_list("pk", flat=True)]
        if channels:
            body = {"session_id": session.public_id, "status": session.status, "reason": session.end_reason}
            broadcast(channels, "SessionWithdrawn", body)
    session_status_changed(session)


def kiosk_status_changed(kiosk: Kiosk, *, online: bool, at: datetime) -> None:
    body = {"kiosk": _kiosk_brief(kiosk), "online": online, "changed_at": iso_z(at)}
    broadcast([owner_channel(kiosk.business.owner_id)], "KioskStatusChanged", body)


def order_updated(session: Session, order) -> None:
    """To the kiosk: the order object itself (spec 6.2), the same as GET .../order answers."""
    from apps.orders.representation import order_body

    broadcast([kiosk_channel(session.kiosk_id)], "OrderUpdated", order_body(session, order))
