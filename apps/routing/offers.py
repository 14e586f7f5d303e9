"""Offers: who is told of each waiting session, and until when (docs/kiosk-and-agent.md "Offers").

`offers_dispatch` is the router's one writer: under one lock (a PostgreSQL advisory lock; a
process lock on SQLite) it closes lapsed offers (a miss; M misses in a row set the agent on
break), withdraws offers whose agent can no longer take them, and makes the offers that
router.plan_offers asks for. It runs after every change that can free an agent or add a session
(tasks.dispatch_soon, on commit, as a background job) and on the routing tick (tasks.route, every
ROUTING_TICK_SECONDS), which is also what picks up the timers of a process that died: an offer is a
row with an expiry, so nothing is lost with a process.

Offers decide who is told, not who may answer: accept (apps/sessions/services.session_accept)
stays one conditional UPDATE open to every agent of the pool holding no session; routing settles
the offers in its transaction, as a subscriber of SessionAccepted (services.offers_settle_accept).
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, Q
from django.utils import timezone

from apps.accounts import services as account_services
from apps.accounts.models import AgentStatus, StatusReason, User
from apps.core import events
from apps.routing.capacity import seats_of
from apps.routing.domain_events import OfferClosed, OfferMade, QueueChanged
from apps.routing.free_agents import free_agents
from apps.routing.models import Offer, OfferStatus
from apps.routing.router import AtWorkAgent, WaitingSession, nobody_speaks, plan_offers, primary_language
from apps.routing.routing_settings import routing_for_owner, routing_for_owners
from apps.routing.signed_in import agents_holding_channel, signed_in
from apps.routing.transfer_ends import transfers_lapsed
from apps.sessions.models import Assignment, AssignmentVia, Medium, Session, SessionStatus
from apps.sessions.seats import has_room

ROUTING_LOCK_KEY = 0x6B696F736B  # "kiosk": the advisory lock id of offers_dispatch
_process_lock = threading.Lock()


@contextmanager
def _routing_lock() -> Iterator[None]:
    """One dispatch at a time, across processes (PostgreSQL) or threads (SQLite)."""
    with _process_lock, transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ROUTING_LOCK_KEY])
        yield


def offers_dispatch(*, now: datetime | None = None) -> int:
    """Close lapsed offers, withdraw untakeable ones, make new ones. Returns the offers made."""
    now = now or timezone.now()
    holding = agents_holding_channel()  # read before the lock: it may wait on the real-time state
    with _routing_lock():
        _close_lapsed(now)
        _withdraw_untakeable(now, holding)
        return _make_offers(now, holding)


def close_offer(offer: Offer, status: str, now: datetime) -> bool:
    """Close a live offer once (an accept may be settling it at the same time)."""
    return bool(Offer.objects.filter(pk=offer.pk, status=OfferStatus.LIVE).update(status=status, closed_at=now))


def _close_lapsed(now: datetime) -> None:
    """Each lapsed offer is a miss; M misses in a row set the agent on break (told why). A
    lapsed transfer offer is no miss (the customer is being served); its sender is told."""
    lapsed = Offer.objects.filter(status=OfferStatus.LIVE, expires_at__lte=now).select_related("session", "agent")
    closed = []
    for offer in lapsed:
        if not close_offer(offer, OfferStatus.MISSED, now):
            continue
        events.emit(OfferClosed(offer, reason="offer_expired"))
        if offer.transfer_from_id is not None:
            closed.append(offer)
            continue
        agent = offer.agent
        misses = agent.missed_offers + 1
        User.objects.filter(pk=agent.pk).update(missed_offers=misses)
        if misses >= routing_for_owner(agent.owner_id).misses_before_break:
            account_services.agents_set_status_by_server(
                agent_ids=[agent.pk],
                only_from=(AgentStatus.AVAILABLE,),
                status=AgentStatus.BREAK,
                reason=StatusReason.MISSED_OFFERS,
            )
    transfers_lapsed(closed)


def _withdraw_untakeable(now: datetime, holding: set[int] | None) -> None:
    """An offer whose agent went on break or offline, stopped being signed in, or has no seat
    for its session any more (it took another) is withdrawn (not a miss)."""
    live = list(Offer.objects.filter(status=OfferStatus.LIVE).select_related("session"))
    if not live:
        return
    agent_ids = [offer.agent_id for offer in live]
    takers = set(
        User.objects.filter(
            signed_in(now, holding), pk__in=agent_ids, is_active=True, agent_status=AgentStatus.AVAILABLE
        ).values_list("pk", flat=True)
    )
    seats = seats_of(agent_ids)
    closed = []
    for offer in live:
        seat = seats.get(offer.agent_id)
        video = offer.session.medium == Medium.VIDEO
        if (
            offer.agent_id in takers
            and seat is not None
            and has_room(capacity=seat.capacity, held=seat.held, video=video)
        ):
            continue
        if close_offer(offer, OfferStatus.WITHDRAWN, now):
            events.emit(OfferClosed(offer, reason="agent_unavailable"))
            closed.append(offer)
    transfers_lapsed(closed)


def _make_offers(now: datetime, holding: set[int] | None) -> int:
    waiting = list(
        Session.objects.filter(status=SessionStatus.PENDING)
        .select_related("kiosk", "business")
        .order_by("created_at", "pk")
    )
    if not waiting:
        return 0
    owner_ids = {session.owner_id for session in waiting}
    routing = routing_for_owners(owner_ids)
    offers_of_waiting = Offer.objects.filter(session__in=waiting).values_list("session_id", "agent_id", "status")
    live_count: dict[int, int] = {}
    offered_before: dict[int, set[int]] = {}
    for session_id, agent_id, status in offers_of_waiting:
        offered_before.setdefault(session_id, set()).add(agent_id)
        if status == OfferStatus.LIVE:
            live_count[session_id] = live_count.get(session_id, 0) + 1

    pools = User.objects.filter(Q(owner_id__in=owner_ids) | Q(owner__isnull=True)).filter(
        signed_in(now, holding), is_agent=True, is_active=True
    )
    at_work = [
        AtWorkAgent(owner_id=owner_id, languages=frozenset(languages or ()))
        for owner_id, languages in pools.filter(agent_status__in=(AgentStatus.AVAILABLE, AgentStatus.BUSY)).values_list(
            "owner_id", "languages"
        )
    ]

    def any_language(session: Session) -> bool:
        waited = (now - session.created_at).total_seconds()
        if waited >= routing[session.owner_id].any_language_after_seconds:
            return True
        return nobody_speaks(session.owner_id, primary_language(session.customer_locale), at_work)

    sessions = [
        WaitingSession(
            id=session.pk,
            owner_id=session.owner_id,
            created_at=session.created_at,
            language=primary_language(session.customer_locale),
            any_language=any_language(session),
            wave_room=routing[session.owner_id].offer_size - live_count.get(session.pk, 0),
            live_offers=live_count.get(session.pk, 0),
            offered_before=frozenset(offered_before.get(session.pk, ())),
            video=session.medium == Medium.VIDEO,
            accessible_mode=session.accessible_mode,
        )
        for session in waiting
    ]
    if all(session.wave_room <= 0 for session in sessions):
        return 0
    free = free_agents(pools.filter(agent_status=AgentStatus.AVAILABLE), now)
    answered = _answered_this_shift([agent.id for agent in free], now)
    agents = [replace(agent, answered=answered.get(agent.id, 0)) for agent in free]
    plan = plan_offers(sessions, agents)
    if not plan:
        return 0
    by_id = {session.pk: session for session in waiting}
    speaks = {agent.id: agent.languages for agent in agents}
    language = {session.id: session.language for session in sessions}
    made = []
    for session_id, agent_id in plan:
        session = by_id[session_id]
        languages = speaks[agent_id]
        offer = Offer(
            session=session,
            agent_id=agent_id,
            created_at=now,
            expires_at=now + timedelta(seconds=routing[session.owner_id].offer_seconds),
            any_language=bool(languages) and language[session_id] not in languages,
        )
        made.append(offer)
    Offer.objects.bulk_create(made)
    for offer in made:
        events.emit(OfferMade(offer))
    for owner_id in {offer.session.owner_id for offer in made}:
        events.emit(QueueChanged(owner_id=owner_id))  # agents_available and the estimate moved
    return len(made)


def _answered_this_shift(agent_ids: list[int], now: datetime) -> dict[int, int]:
    """Sessions each agent took (accepted, not handed over) within ROUTING_FAIRNESS_HOURS."""
    since = now - timedelta(hours=settings.ROUTING_FAIRNESS_HOURS)
    rows = (
        Assignment.objects.filter(agent_id__in=agent_ids, via=AssignmentVia.ACCEPT, started_at__gte=since)
        .values("agent_id")
        .annotate(n=Count("pk"))
        .values_list("agent_id", "n")
    )
    return dict(rows)


def current_offer(agent: User, *, now: datetime | None = None) -> Offer | None:
    """The agent's live offer of a session still waiting, or of an active session a colleague
    transfers to it, if any (GET /api/sessions/incoming)."""
    now = now or timezone.now()
    waiting = Q(session__status=SessionStatus.PENDING)
    transferred = Q(session__status=SessionStatus.ACTIVE, transfer_from__isnull=False)
    return (
        Offer.objects.filter(waiting | transferred, agent=agent, status=OfferStatus.LIVE, expires_at__gt=now)
        .select_related("session__kiosk", "session__business", "transfer_from")
        .first()
    )
