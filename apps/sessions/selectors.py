"""Reads of sessions, always scoped to the caller's tenant: a session outside it is 404."""

from django.conf import settings
from django.db.models import QuerySet

from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.sessions.models import Session, SessionStatus

_NOT_FOUND = "No such session."


def sessions_visible_to_agent(agent: User) -> QuerySet[Session]:
    """An owner's agents see that owner's sessions; ownerless (platform) agents see all."""
    sessions = Session.objects.all()
    if agent.owner_id is not None:
        sessions = sessions.filter(owner_id=agent.owner_id)
    return sessions


def session_visible_to_agent(*, agent: User, public_id: str, lock: bool = False) -> Session:
    sessions = sessions_visible_to_agent(agent)
    if lock:
        sessions = sessions.select_for_update(of=("self",))
    session = sessions.filter(public_id=public_id).first()
    if session is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    return session


def session_for_kiosk(*, kiosk: Kiosk, public_id: str, lock: bool = False) -> Session:
    """A kiosk sees only its own sessions (with the agent, for the status poll: one query)."""
    sessions = Session.objects.filter(kiosk=kiosk)
    sessions = sessions.select_for_update(of=("self",)) if lock else sessions.select_related("agent")
    session = sessions.filter(public_id=public_id).first()
    if session is None:
        raise DomainError(ErrorCode.SESSION_NOT_FOUND, _NOT_FOUND)
    return session


def incoming_sessions_for_agent(agent: User) -> QuerySet[Session]:
    """Pending sessions the agent may accept, oldest first."""
    return (
        sessions_visible_to_agent(agent)
        .filter(status=SessionStatus.PENDING)
        .select_related("kiosk", "business")
        .order_by("created_at", "pk")[: settings.INCOMING_SESSIONS_LIMIT]
    )


def current_session_for_agent(agent: User) -> Session:
    """The agent's live (active or in payment) session: the business it currently works for."""
    session = (
        Session.objects.filter(agent=agent, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT))
        .select_related("business")
        .first()
    )
    if session is None:
        raise DomainError(ErrorCode.NO_ACTIVE_SESSION, "Accept a session first: the menu is that business's menu.")
    return session
