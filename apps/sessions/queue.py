"""The waiting line a kiosk customer sees: `queue {position, estimated_wait_seconds,
agents_available}` in the status body while the session is pending (docs/kiosk-and-agent.md
"The queue").

- position: 1-based among the owner's waiting sessions, oldest first (the owner's kiosks share
  its agents and the platform's);
- agents_available: the pool's agents signed in and available (free or holding an offer);
- self_service_after_seconds: the owner's self-service threshold: past this wait (or estimate),
  or with no agent available, the kiosk offers to order alone (issue 25 part 4);
- estimated_wait_seconds: from the owner's recent sessions (the last RECENT of the last hour):
  their mean time to answer, plus, for the customers beyond the available agents, the mean
  handle time for each round the signed-in agents must serve first; null with no recent answered
  session, or with nobody signed in.

The body changes only when the line changes (a session joins or leaves it, offers are made, an
agent's status changes): `queue_changed` then drops every waiting kiosk's cached status copy and
sends it QueueUpdated, so the poll's cached copy is never stale.
"""

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import kiosk_channel
from apps.sessions.bodies import QueueBody
from apps.sessions.models import Session, SessionStatus
from apps.sessions.routing_settings import routing_for_owner
from apps.sessions.signed_in import agents_holding_channel
from apps.sessions.signed_in import signed_in as signed_in_filter
from apps.sessions.status_cache import session_moved

RECENT = 20
RECENT_WINDOW = timedelta(hours=1)


@dataclass(frozen=True)
class _Pool:
    available: int
    signed_in: int
    answer_seconds: float | None
    handle_seconds: float | None


def _pool(owner_id: int, now: datetime) -> _Pool:
    agents = User.objects.filter(
        Q(owner_id=owner_id) | Q(owner__isnull=True),
        signed_in_filter(now, agents_holding_channel()),
        is_agent=True,
        is_active=True,
    )
    signed_in = agents.filter(agent_status__in=(AgentStatus.AVAILABLE, AgentStatus.BUSY)).count()
    available = agents.filter(agent_status=AgentStatus.AVAILABLE).count()
    recent = list(
        Session.objects.filter(owner_id=owner_id, accepted_at__gte=now - RECENT_WINDOW)
        .order_by("-accepted_at")
        .values_list("created_at", "accepted_at", "ended_at")[:RECENT]
    )
    answers = [(accepted - created).total_seconds() for created, accepted, _ in recent if accepted is not None]
    handles = [(ended - accepted).total_seconds() for _, accepted, ended in recent if ended and accepted]
    return _Pool(
        available=available,
        signed_in=signed_in,
        answer_seconds=sum(answers) / len(answers) if answers else None,
        handle_seconds=sum(handles) / len(handles) if handles else None,
    )


def _estimate(position: int, pool: _Pool) -> int | None:
    if pool.answer_seconds is None or pool.signed_in == 0:
        return None
    beyond = max(0, position - pool.available)
    if beyond == 0:
        return round(pool.answer_seconds)
    if pool.handle_seconds is None:
        return None
    rounds = math.ceil(beyond / pool.signed_in)
    return round(pool.answer_seconds + rounds * pool.handle_seconds)


def queues_of_owner(owner_id: int, *, now: datetime | None = None) -> dict[int, dict]:
    """Each waiting session of the owner (by pk) with its queue body."""
    now = now or timezone.now()
    waiting = list(
        Session.objects.filter(owner_id=owner_id, status=SessionStatus.PENDING)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
    )
    if not waiting:
        return {}
    pool = _pool(owner_id, now)
    self_service_after = routing_for_owner(owner_id).self_service_after_seconds
    return {
        pk: {
            "position": position,
            "estimated_wait_seconds": _estimate(position, pool),
            "agents_available": pool.available,
            "self_service_after_seconds": self_service_after,
        }
        for position, pk in enumerate(waiting, start=1)
    }


def queue_of(session: Session, *, now: datetime | None = None) -> QueueBody | None:
    """The status body's `queue`: null unless the session is pending."""
    if session.status != SessionStatus.PENDING:
        return None
    now = now or timezone.now()
    ahead = Session.objects.filter(owner_id=session.owner_id, status=SessionStatus.PENDING).filter(
        Q(created_at__lt=session.created_at) | Q(created_at=session.created_at, pk__lt=session.pk)
    )
    position = ahead.count() + 1
    pool = _pool(session.owner_id, now)
    return {
        "position": position,
        "estimated_wait_seconds": _estimate(position, pool),
        "agents_available": pool.available,
        "self_service_after_seconds": routing_for_owner(session.owner_id).self_service_after_seconds,
    }


def queue_changed(event, recorded: DomainEvent | None = None) -> None:
    """Subscriber of everything that moves an owner's line: every waiting kiosk's cached status
    copy is dropped (now and at commit) and each hears its new place (QueueUpdated, on commit)."""
    owner_id = event.owner_id
    if owner_id is None:  # a platform agent: no one owner's line (the next change of each tells it)
        return
    queues = queues_of_owner(owner_id)
    if not queues:
        return
    sessions = Session.objects.filter(pk__in=queues).values_list("pk", "public_id", "kiosk_id")
    for pk, public_id, kiosk_id in sessions:
        session_moved(public_id)
        broadcast([kiosk_channel(kiosk_id)], "QueueUpdated", {"session_id": public_id, "queue": queues[pk]})
