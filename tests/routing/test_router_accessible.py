"""A person first for a customer in the kiosk's accessible mode: the router offers those sessions
before older sessions, and otherwise oldest first (a Hypothesis property of the pure plan,
apps/routing/router.py), and against the database a customer who turns the mode on while waiting
is offered first at the next routing pass and moves up the line (apps/routing/offers.py, queue.py)."""

from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.routing import offers
from apps.routing.models import Offer, OfferStatus
from apps.routing.queue import queue_of, queues_of_owner
from apps.routing.router import FreeAgent, WaitingSession, may_take, plan_offers, session_order
from tests import factories

T0 = datetime(2026, 1, 1, tzinfo=UTC)
LANGUAGES = ("en", "es")

sessions_strategy = st.lists(
    st.builds(
        lambda i, owner, age, language, room, accessible: WaitingSession(
            id=i,
            owner_id=owner,
            created_at=T0 + timedelta(seconds=age),
            language=language,
            any_language=False,
            wave_room=room,
            accessible_mode=accessible,
        ),
        st.integers(1, 1_000),
        st.integers(1, 2),
        st.integers(0, 60),
        st.sampled_from(LANGUAGES),
        st.integers(0, 3),
        st.booleans(),
    ),
    max_size=10,
    unique_by=lambda session: session.id,
)
agents_strategy = st.lists(
    st.builds(
        lambda i, owner, languages, idle: FreeAgent(
            id=i, owner_id=owner, languages=frozenset(languages), idle_since=T0 + timedelta(seconds=idle)
        ),
        st.integers(1, 20),
        st.one_of(st.none(), st.integers(1, 2)),
        st.sets(st.sampled_from(LANGUAGES), max_size=2),
        st.integers(0, 60),
    ),
    max_size=12,
    unique_by=lambda agent: agent.id,
)


@settings(max_examples=150, deadline=None)
@given(sessions=sessions_strategy, agents=agents_strategy)
def test_the_plan_serves_accessible_mode_sessions_first_and_otherwise_the_oldest(sessions, agents):
    plan = plan_offers(sessions, agents)
    by_session = {session.id: session for session in sessions}
    by_agent = {agent.id: agent for agent in agents}
    count = {session.id: 0 for session in sessions}
    for session_id, _ in plan:
        count[session_id] += 1
    full = {session.id for session in sessions if count[session.id] >= session.wave_room}

    def before(first: WaitingSession, second: WaitingSession) -> bool:
        """`first` is served before `second`: in accessible mode and `second` not, or both alike and older."""
        if first.accessible_mode != second.accessible_mode:
            return first.accessible_mode
        return (first.created_at, first.id) < (second.created_at, second.id)

    for session_id, agent_id in plan:
        agent, offered = by_agent[agent_id], by_session[session_id]
        for other in sessions:
            if before(other, offered) and may_take(agent, other):
                # The agent could take a session served before this one: it had no room left.
                assert other.id in full, (other, offered, agent)
    # The rule itself: every accessible-mode session before every other, each group oldest first.
    order = sorted(sessions, key=session_order)
    modes = [session.accessible_mode for session in order]
    assert modes == sorted(modes, reverse=True)
    for mode in (True, False):
        group = [(s.created_at, s.id) for s in order if s.accessible_mode is mode]
        assert group == sorted(group)


def test_one_agent_and_two_customers_the_younger_in_accessible_mode_is_offered_first():
    older = WaitingSession(id=1, owner_id=1, created_at=T0, language="en", any_language=False, wave_room=3)
    younger = WaitingSession(
        id=2,
        owner_id=1,
        created_at=T0 + timedelta(seconds=50),
        language="en",
        any_language=False,
        wave_room=3,
        accessible_mode=True,
    )
    agent = FreeAgent(id=7, owner_id=1, languages=frozenset(), idle_since=T0)
    assert plan_offers([older, younger], [agent]) == [(2, 7)]


def _live(session) -> set[int]:
    return set(Offer.objects.filter(session=session, status=OfferStatus.LIVE).values_list("agent_id", flat=True))


@pytest.mark.django_db
def test_a_customer_who_turns_the_mode_on_while_waiting_is_offered_first_at_the_next_pass(
    kiosk, kiosk_client, owner, agent, broadcasts
):
    agent.idle_since = timezone.now() - timedelta(seconds=30)
    agent.save(update_fields=["idle_since"])
    older = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=kiosk.business), created_at=timezone.now() - timedelta(seconds=60)
    )
    younger = factories.SessionFactory(kiosk=kiosk, created_at=timezone.now() - timedelta(seconds=5))
    assert queue_of(younger)["position"] == 2
    response = kiosk_client.post(
        f"/api/public/sessions/{younger.public_id}/accessible",
        {"accessible_mode": True},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    younger.refresh_from_db()
    assert queue_of(younger)["position"] == 1  # first in line now
    assert queue_of(older)["position"] == 2
    assert [body["position"] for body in queues_of_owner(owner.pk).values()] == [1, 2]
    told = {b.data["session_id"]: b.data["queue"]["position"] for b in broadcasts if b.event == "QueueUpdated"}
    assert told == {younger.public_id: 1, older.public_id: 2}  # each waiting kiosk hears its new place
    offers.offers_dispatch()
    assert _live(younger) == {agent.pk}
    assert _live(older) == set()
