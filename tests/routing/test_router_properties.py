"""Properties of the router (Hypothesis): the pure plan (apps/routing/router.py) and the router
against the database under random shifts of arrivals, accepts, ends, lapses and breaks
(apps/routing/offers.py): never two agents on one session, never two sessions or two offers on
one agent, oldest first within a pool."""

import contextlib
from dataclasses import asdict, replace
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.accounts import services as account_services
from apps.accounts.models import AgentStatus, User
from apps.core.errors import DomainError
from apps.routing import accept as routing_accept
from apps.routing import offers
from apps.routing.capacity import seats_of
from apps.routing.models import Offer, OfferStatus, RoutingSettings
from apps.routing.router import (
    FreeAgent,
    WaitingSession,
    may_take,
    passed_over,
    plan_offers,
    primary_language,
)
from apps.routing.routing_settings import defaults, routing_for_owner
from apps.sessions import services as session_services
from apps.sessions.models import Medium, Session, SessionStatus
from apps.sessions.seats import Held, has_room
from tests import factories

T0 = datetime(2026, 1, 1, tzinfo=UTC)
LANGUAGES = ("en", "es", "fr")
MEDIA = tuple(Medium.values)

sessions_strategy = st.lists(
    st.builds(
        lambda i, owner, age, language, any_language, room, live, before: WaitingSession(
            id=i,
            owner_id=owner,
            created_at=T0 + timedelta(seconds=age),
            language=language,
            any_language=any_language,
            wave_room=room,
            live_offers=live,
            offered_before=frozenset(before),
        ),
        st.integers(1, 10_000),
        st.integers(1, 3),
        st.integers(0, 100),
        st.sampled_from(LANGUAGES),
        st.booleans(),
        st.integers(0, 4),
        st.integers(0, 3),
        st.sets(st.integers(1, 30), max_size=5),
    ),
    max_size=12,
    unique_by=lambda session: session.id,
)
agents_strategy = st.lists(
    st.builds(
        lambda i, owner, languages, idle: FreeAgent(
            id=i, owner_id=owner, languages=frozenset(languages), idle_since=T0 + timedelta(seconds=idle)
        ),
        st.integers(1, 30),
        st.one_of(st.none(), st.integers(1, 3)),
        st.sets(st.sampled_from(LANGUAGES), max_size=2),
        st.integers(0, 100),
    ),
    max_size=20,
    unique_by=lambda agent: agent.id,
)


@given(sessions=sessions_strategy, agents=agents_strategy)
def test_the_plan_gives_each_agent_one_offer_fills_waves_oldest_first_and_leaves_no_one_idle_in_vain(sessions, agents):
    plan = plan_offers(sessions, agents)
    by_session = {session.id: session for session in sessions}
    by_agent = {agent.id: agent for agent in agents}
    offered_agents = [agent_id for _, agent_id in plan]
    assert len(offered_agents) == len(set(offered_agents))  # one offer per agent
    count = {session.id: 0 for session in sessions}
    for session_id, agent_id in plan:
        assert may_take(by_agent[agent_id], by_session[session_id])  # pool and language
        count[session_id] += 1
    for session in sessions:
        assert count[session.id] <= max(0, session.wave_room)  # waves of at most K
    full = {session.id for session in sessions if count[session.id] >= session.wave_room}
    # The line: no session ahead that the agent could take was left with fewer offers.
    assert not passed_over(plan, sessions, lambda agent_id, session: may_take(by_agent[agent_id], session))
    # Nobody free is left out while a session it could take has room.
    for agent in agents:
        if agent.id not in offered_agents:
            assert all(session.id in full for session in sessions if may_take(agent, session))


ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("start"), st.integers(0, 3), st.sampled_from(("en-US", "es-MX"))),
        st.tuples(st.just("accept"), st.integers(0, 5), st.integers(0, 3)),
        st.tuples(st.just("end"), st.integers(0, 5)),
        st.tuples(st.just("wait"), st.integers(1, 40)),
        st.tuples(st.just("status"), st.integers(0, 5), st.sampled_from(("available", "break"))),
        st.tuples(
            st.just("dispatch"),
        ),
    ),
    min_size=1,
    max_size=25,
)


def _check_invariants(now, made_after: int):
    live = list(Offer.objects.filter(status=OfferStatus.LIVE).values_list("agent_id", "session_id"))
    agents_with_offers = [agent for agent, _ in live]
    assert len(agents_with_offers) == len(set(agents_with_offers))  # never two offers on one agent
    assert not Session.objects.filter(pk__in=[s for _, s in live]).exclude(status=SessionStatus.PENDING).exists()
    held = list(
        Session.objects.filter(status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT)).values_list(
            "agent_id", flat=True
        )
    )
    assert None not in held  # an active session has its one agent
    assert len(held) == len(set(held))  # never two sessions on one agent
    assert not set(held) & set(agents_with_offers)  # a serving agent holds no offer
    # Oldest first: an offer of the last dispatch (its ids are above `made_after`) is for a session
    # no older waiting session the agent could take had room for; and no free agent is left while
    # a session it could take has room.
    waiting = list(Session.objects.filter(status=SessionStatus.PENDING).order_by("created_at", "pk"))
    live_count = {session.pk: 0 for session in waiting}
    for _, session_id in live:
        live_count[session_id] += 1
    routing = defaults()
    lines = {
        session.pk: WaitingSession(
            id=session.pk,
            owner_id=session.owner_id,
            created_at=session.created_at,
            language=primary_language(session.customer_locale),
            any_language=(now - session.created_at).total_seconds() >= routing.any_language_after_seconds,
            wave_room=routing.offer_size - live_count[session.pk],
        )
        for session in waiting
    }

    def as_free(agent: User) -> FreeAgent:
        return FreeAgent(id=agent.pk, owner_id=agent.owner_id, languages=frozenset(agent.languages), idle_since=now)

    _kept_the_line(waiting, routing.offer_size, made_after, lines, as_free)
    free = User.objects.filter(
        is_agent=True, agent_status=AgentStatus.AVAILABLE, last_seen_at__gte=now - timedelta(seconds=10)
    ).exclude(pk__in=agents_with_offers + held)
    for agent in free:
        assert not any(line.wave_room > 0 and may_take(as_free(agent), line) for line in lines.values()), agent


def _kept_the_line(waiting, offer_size: int, made_after: int, lines, as_free) -> None:
    """The last dispatch (the live offers above `made_after`) kept the line (router.passed_over),
    judged on the waves as they were before it."""
    live = list(
        Offer.objects.filter(status=OfferStatus.LIVE, session__in=waiting).order_by("pk").select_related("agent")
    )
    before = {session.pk: sum(o.session_id == session.pk and o.pk <= made_after for o in live) for session in waiting}
    views = [
        replace(lines[session.pk], wave_room=offer_size - before[session.pk], live_offers=before[session.pk])
        for session in waiting
    ]
    plan = [(offer.session_id, offer.agent_id) for offer in live if offer.pk > made_after]
    agents = {offer.agent_id: as_free(offer.agent) for offer in live}
    assert not passed_over(plan, views, lambda agent_id, view: may_take(agents[agent_id], view)), plan


def _run_shift(actions, agents, apply, check) -> None:
    """The shift on a stopped clock: each action (a refused one changes nothing), the clock moved
    on a wait (the agents still seen), then one routing run and `check(now, last offer before it)`."""
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for action in actions:
            with contextlib.suppress(DomainError):  # a refused call (409, 404...) changes nothing
                apply(action)
            if action[0] == "wait":
                clock.shift(timedelta(seconds=action[1]))
                User.objects.filter(pk__in=[agent.pk for agent in agents]).update(last_seen_at=timezone.now())
            made_after = Offer.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
            offers.offers_dispatch()
            check(timezone.now(), made_after)


@pytest.mark.django_db
@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(actions=ACTIONS)
def test_random_shifts_keep_one_agent_per_session_one_session_and_offer_per_agent(actions, owner):
    with transaction.atomic():
        kiosks = [factories.KioskFactory(business=owner.businesses.first() or factories.BusinessFactory(owner=owner))]
        kiosks += [factories.KioskFactory(business=kiosks[0].business) for _ in range(3)]
        agents = [
            factories.AgentFactory(owner=owner, languages=["en"]),
            factories.AgentFactory(owner=owner, languages=["es"]),
            factories.AgentFactory(owner=owner, languages=["en", "es"]),
            factories.AgentFactory(owner=owner),
            factories.AgentFactory(owner=None, languages=["es"]),
            factories.AgentFactory(owner=None),
        ]
        _run_shift(actions, agents, lambda action: _apply(action, kiosks, agents), _check_invariants)
        transaction.set_rollback(True)


def _apply(action, kiosks, agents):
    kind = action[0]
    if kind == "start":
        session_services.session_start(kiosk=kiosks[action[1]], customer_locale=action[2])
    elif kind == "accept":
        session = Session.objects.filter(kiosk=kiosks[action[2]], status=SessionStatus.PENDING).first()
        if session is not None:
            session_services.session_accept(public_id=session.public_id, agent=agents[action[1]])
    elif kind == "end":
        session = Session.objects.filter(agent=agents[action[1]], status=SessionStatus.ACTIVE).first()
        if session is not None:
            with transaction.atomic():
                locked = Session.objects.select_for_update().get(pk=session.pk)
                session_services.session_end_locked(
                    session=locked, agent=agents[action[1]], reason="completed", notes=""
                )
    elif kind == "status":
        agent = User.objects.get(pk=agents[action[1]].pk)
        if agent.agent_status != AgentStatus.BUSY:
            account_services.agent_set_status(agent=agent, status=action[2])


# --- Capacity: one video conversation and C sessions in all per agent (apps/sessions/seats.py) ---

seated_agents_strategy = st.lists(
    st.builds(
        lambda i, owner, languages, idle, capacity, held, in_conversation: FreeAgent(
            id=i,
            owner_id=owner,
            languages=frozenset(languages),
            idle_since=T0 + timedelta(seconds=idle),
            capacity=capacity,
            held=Held(min(held, capacity - 1), in_conversation and min(held, capacity - 1) > 0),
        ),
        st.integers(1, 30),
        st.one_of(st.none(), st.integers(1, 3)),
        st.sets(st.sampled_from(LANGUAGES), max_size=2),
        st.integers(0, 100),
        st.integers(1, 4),
        st.integers(0, 3),
        st.booleans(),
    ),
    max_size=20,
    unique_by=lambda agent: agent.id,
)
mixed_sessions_strategy = st.lists(
    st.builds(
        lambda i, owner, age, language, any_language, room, live, before, video: WaitingSession(
            id=i,
            owner_id=owner,
            created_at=T0 + timedelta(seconds=age),
            language=language,
            any_language=any_language,
            wave_room=room,
            live_offers=live,
            offered_before=frozenset(before),
            video=video,
        ),
        st.integers(1, 10_000),
        st.integers(1, 3),
        st.integers(0, 100),
        st.sampled_from(LANGUAGES),
        st.booleans(),
        st.integers(0, 4),
        st.integers(0, 3),
        st.sets(st.integers(1, 30), max_size=5),
        st.booleans(),
    ),
    max_size=12,
    unique_by=lambda session: session.id,
)


@given(sessions=mixed_sessions_strategy, agents=seated_agents_strategy)
def test_the_plan_with_seats_offers_only_room_oldest_first_least_loaded_first_and_leaves_no_room_idle(sessions, agents):
    plan = plan_offers(sessions, agents)
    by_session = {session.id: session for session in sessions}
    by_agent = {agent.id: agent for agent in agents}
    offered = {agent_id: session_id for session_id, agent_id in plan}
    assert len(offered) == len(plan)  # one offer per agent
    count = {session.id: 0 for session in sessions}
    for session_id, agent_id in plan:
        agent, session = by_agent[agent_id], by_session[session_id]
        assert agent.held.count < agent.capacity  # a seat free
        assert not (session.video and agent.held.in_conversation)  # never a second video conversation
        assert may_take(agent, session)
        count[session_id] += 1
    full = {session.id for session in sessions if count[session.id] >= session.wave_room}
    # The line: no session ahead that the agent could take was left with fewer offers.
    assert not passed_over(plan, sessions, lambda agent_id, session: may_take(by_agent[agent_id], session))
    for agent in agents:
        if agent.id in offered:
            continue
        for session in sessions:
            if not may_take(agent, session):
                continue
            assert session.id in full, (agent, session)  # no agent with room idle in vain
            # Whoever got it came first: the owner's agents, those not yet offered it, then those
            # holding nothing, then the least loaded, then those who took the fewest this shift,
            # then the longest idle.
            for winner in (by_agent[a] for s, a in plan if s == session.id):
                rank = [
                    (a.owner_id is None, a.id in session.offered_before, a.held.count, a.answered, a.idle_since, a.id)
                    for a in (winner, agent)
                ]
                assert rank[0] < rank[1], (winner, agent, session)


CAPACITY_ACTIONS = st.lists(
    st.one_of(
        # Starts and accepts weigh three times the rest: agents fill their seats.
        *[st.tuples(st.just("start"), st.integers(0, 5), st.sampled_from(("en-US", "es-MX")), st.sampled_from(MEDIA))]
        * 3,
        *[st.tuples(st.just("accept"), st.integers(0, 3), st.integers(0, 2))] * 3,  # the nth waiting
        st.tuples(st.just("pay"), st.integers(0, 3)),
        st.tuples(st.just("paid"), st.integers(0, 3)),
        st.tuples(st.just("end"), st.integers(0, 3)),
        st.tuples(st.just("wait"), st.integers(1, 40)),
        st.tuples(st.just("status"), st.integers(0, 3), st.sampled_from(("available", "break"))),
    ),
    min_size=10,  # a shift long enough to fill seats
    max_size=24,
)


@pytest.mark.django_db
@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(actions=CAPACITY_ACTIONS, capacity=st.integers(1, 3))
def test_random_shifts_with_capacity_keep_seats_oldest_first_and_no_room_idle(actions, capacity, owner):
    """Each step is followed by one routing run (the tick, or the job a change queues): after it
    no agent with a seat and no offer is left while a session it could take has room."""
    with transaction.atomic():
        RoutingSettings.objects.create(owner=owner, **{**asdict(defaults()), "agent_capacity": capacity})
        business = owner.businesses.first() or factories.BusinessFactory(owner=owner)
        kiosks = [factories.KioskFactory(business=business) for _ in range(6)]
        agents = [
            factories.AgentFactory(owner=owner, languages=["en"]),
            factories.AgentFactory(owner=owner, languages=["es"]),
            factories.AgentFactory(owner=owner, agent_capacity=2),
            factories.AgentFactory(owner=None),
        ]
        agent_ids = [agent.pk for agent in agents]
        _run_shift(
            actions,
            agents,
            lambda action: _apply_with_seats(action, kiosks, agents),
            lambda now, made_after: _check_seat_invariants(now, made_after, owner.pk, agent_ids),
        )
        transaction.set_rollback(True)


def _held_session(agent, **where):
    return Session.objects.filter(agent=agent, **where).order_by("pk").first()


def _apply_with_seats(action, kiosks, agents):
    kind = action[0]
    if kind == "start":
        session_services.session_start(kiosk=kiosks[action[1]], customer_locale=action[2], medium=action[3])
    elif kind == "accept":
        waiting = list(Session.objects.filter(status=SessionStatus.PENDING).order_by("created_at", "pk")[:3])
        if waiting:
            session = waiting[action[2] % len(waiting)]
            routing_accept.session_accept(public_id=session.public_id, agent=agents[action[1]])
    elif kind in ("pay", "paid", "end"):
        status = SessionStatus.PAYMENT if kind == "paid" else SessionStatus.ACTIVE
        session = _held_session(agents[action[1]], status=status)
        if session is None:
            return
        with transaction.atomic():
            locked = Session.objects.select_for_update().get(pk=session.pk)
            if kind == "pay":
                session_services.session_move(session=locked, action="send_to_payment")
            elif kind == "paid":
                session_services.session_complete_paid(session=locked)
            else:
                session_services.session_end_locked(
                    session=locked, agent=agents[action[1]], reason="completed", notes=""
                )
    elif kind == "status":
        agent = User.objects.get(pk=agents[action[1]].pk)
        if agent.agent_status != AgentStatus.BUSY:
            account_services.agent_set_status(agent=agent, status=action[2])


def _check_seat_invariants(now, made_after: int, owner_id: int, agent_ids: list[int]):
    seats = seats_of(agent_ids)
    for agent_id, seat in seats.items():
        assert seat.held.count <= seat.capacity, (agent_id, seat)  # never more than C
        conversations = Session.objects.filter(agent_id=agent_id, status=SessionStatus.ACTIVE, medium="video")
        assert conversations.count() <= 1, agent_id  # never two video conversations
    live = list(Offer.objects.filter(status=OfferStatus.LIVE).select_related("session", "agent"))
    assert len({offer.agent_id for offer in live}) == len(live)  # one offer per agent
    assert all(offer.session.status == SessionStatus.PENDING for offer in live)
    routing = routing_for_owner(owner_id)
    waiting = list(Session.objects.filter(status=SessionStatus.PENDING).order_by("created_at", "pk"))
    live_count = {session.pk: 0 for session in waiting}
    for offer in live:
        live_count[offer.session_id] += 1
    lines = {
        session.pk: WaitingSession(
            id=session.pk,
            owner_id=session.owner_id,
            created_at=session.created_at,
            language=primary_language(session.customer_locale),
            any_language=(now - session.created_at).total_seconds() >= routing.any_language_after_seconds,
            wave_room=routing.offer_size - live_count[session.pk],
            video=session.medium == "video",
        )
        for session in waiting
    }

    def as_free(agent: User) -> FreeAgent:
        seat = seats[agent.pk]
        return FreeAgent(
            id=agent.pk,
            owner_id=agent.owner_id,
            languages=frozenset(agent.languages),
            idle_since=now,
            capacity=seat.capacity,
            held=seat.held,
        )

    for offer in live:
        seat = seats[offer.agent_id]  # an offer's agent still has a seat for it
        assert has_room(capacity=seat.capacity, held=seat.held, video=lines[offer.session_id].video), offer
    _kept_the_line(waiting, routing.offer_size, made_after, lines, as_free)
    offered = {offer.agent_id for offer in live}
    free = User.objects.filter(
        pk__in=agent_ids, agent_status=AgentStatus.AVAILABLE, last_seen_at__gte=now - timedelta(seconds=10)
    ).exclude(pk__in=offered)
    for agent in free:  # no agent with room idle while a session it can take waits
        assert not any(line.wave_room > 0 and may_take(as_free(agent), line) for line in lines.values()), agent
