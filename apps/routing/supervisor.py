"""The supervisor's view of an owner's line (the panel's Queue page): the waiting sessions, the
owner's agents by state, and today's answered-within-30-s and abandoned-waiting shares. A read,
scoped to one owner: its sessions and its own agents (not the platform's)."""

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta

from django.db.models import F
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.routing.capacity import seats_of
from apps.routing.models import Offer, OfferStatus
from apps.routing.router import primary_language
from apps.routing.signed_in import agents_holding_channel, signed_in
from apps.sessions.models import Session, SessionStatus

ANSWERED_WITHIN = timedelta(seconds=30)


@dataclass(frozen=True)
class WaitingRow:
    public_id: str
    kiosk: str
    language: str
    waiting_seconds: int


@dataclass(frozen=True)
class AgentRow:
    name: str
    email: str
    state: str  # available, offered, serving, break, offline
    in_session_seconds: int | None  # since its oldest session held was accepted
    capacity: int = 1  # C: customers it serves at once
    sessions_held: int = 0  # its sessions active or in payment


@dataclass(frozen=True)
class Today:
    sessions: int
    answered_within_30s: float | None  # share of today's sessions, None before the first
    abandoned_waiting: float | None


def owner_line(owner_id: int, *, now: datetime | None = None) -> tuple[list[WaitingRow], list[AgentRow], Today]:
    now = now or timezone.now()
    waiting = [
        WaitingRow(
            s.public_id, s.kiosk.name, primary_language(s.customer_locale), int((now - s.created_at).total_seconds())
        )
        for s in Session.objects.filter(owner_id=owner_id, status=SessionStatus.PENDING)
        .select_related("kiosk")
        .order_by("created_at", "pk")
    ]
    agents = User.objects.filter(owner_id=owner_id, is_agent=True, is_active=True).order_by("name", "pk")
    signed = set(agents.filter(signed_in(now, agents_holding_channel())).values_list("pk", flat=True))
    offered = set(Offer.objects.filter(status=OfferStatus.LIVE, agent__in=agents).values_list("agent_id", flat=True))
    serving: dict[int, datetime] = {}
    for agent_id, accepted_at in Session.objects.filter(
        agent__in=agents, status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT)
    ).values_list("agent_id", "accepted_at"):
        if agent_id is not None:
            accepted = accepted_at or now  # a held session always has its accepted_at
            serving[agent_id] = min(serving.get(agent_id, accepted), accepted)
    seats = seats_of([agent.pk for agent in agents])
    rows = []
    for agent in agents:
        if agent.pk in serving:
            state, seconds = "serving", int((now - serving[agent.pk]).total_seconds())
        elif agent.agent_status == AgentStatus.BREAK:
            state, seconds = "break", None
        elif agent.agent_status != AgentStatus.AVAILABLE or agent.pk not in signed:
            state, seconds = "offline", None
        else:
            state, seconds = ("offered" if agent.pk in offered else "available"), None
        seat = seats[agent.pk]
        rows.append(AgentRow(agent.name, agent.email, state, seconds, seat.capacity, seat.held.count))
    start = datetime.combine(now.date(), time.min, tzinfo=UTC)
    today = Session.objects.filter(owner_id=owner_id, created_at__gte=start)
    total = today.count()
    quick = today.filter(accepted_at__isnull=False, accepted_at__lte=F("created_at") + ANSWERED_WITHIN).count()
    abandoned = today.filter(accepted_at__isnull=True, status=SessionStatus.ABANDONED).count()
    shares = Today(total, quick / total if total else None, abandoned / total if total else None)
    return waiting, rows, shares
