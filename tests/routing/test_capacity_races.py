"""Accepts at capacity under real races (PostgreSQL, concurrent requests): the first accept still
wins atomically and the others get 409. Two agents with one seat left each and one session: one
takes it. One agent with one seat left and two sessions (two tabs): it takes one, the other stays
waiting. The agent's row lock serialises its own accepts, so no agent ever holds more than C."""

import pytest

from apps.routing.models import RoutingSettings
from apps.routing.routing_settings import defaults
from apps.sessions.models import Session
from tests import factories
from tests.support.races import at_once
from tests.support.transfers import signed_in_client

pytestmark = [pytest.mark.postgres]
ROUNDS = 4


def _capacity(owner, capacity: int) -> None:
    base = defaults()
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=base.offer_size,
        offer_seconds=base.offer_seconds,
        any_language_after_seconds=base.any_language_after_seconds,
        misses_before_break=base.misses_before_break,
        self_service_after_seconds=base.self_service_after_seconds,
        agent_capacity=capacity,
    )


def _held(agent) -> list[str]:
    return list(Session.objects.filter(agent=agent, status__in=("active", "payment")).values_list("medium", flat=True))


@pytest.mark.django_db(transaction=True)
def test_two_agents_with_one_seat_left_each_race_for_one_session():
    business = factories.BusinessFactory()
    _capacity(business.owner, 2)
    agents = factories.AgentFactory.create_batch(2, owner=business.owner)
    clients = [signed_in_client(agent) for agent in agents]
    for agent, client in zip(agents, clients, strict=True):  # each holds a chat: one seat left
        chat = factories.SessionFactory(kiosk=factories.KioskFactory(business=business), medium="chat")
        assert client.post(f"/api/sessions/{chat.public_id}/accept").status_code == 200
    for _ in range(ROUNDS):
        session = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
        url = f"/api/sessions/{session.public_id}/accept"
        results = at_once([lambda c=client: c.post(url) for client in clients])

        assert not [r for r in results if isinstance(r, Exception)], results
        assert sorted(r.status_code for r in results) == [200, 409], [r.content for r in results]
        [lost] = [r for r in results if r.status_code == 409]
        assert lost.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
        winner = agents[[r.status_code for r in results].index(200)]
        session.refresh_from_db()
        assert (session.status, session.agent_id) == ("active", winner.pk)
        assert sorted(_held(winner)) == ["chat", "video"]
        # The winner's video customer ends; the next round is a race at one seat left again.
        Session.objects.filter(pk=session.pk).update(status="completed")


@pytest.mark.django_db(transaction=True)
def test_one_agent_with_one_seat_left_takes_one_of_two_sessions_accepted_at_once():
    business = factories.BusinessFactory()
    _capacity(business.owner, 2)
    agent = factories.AgentFactory(owner=business.owner)
    tabs = [signed_in_client(agent), signed_in_client(agent)]
    payment = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    assert tabs[0].post(f"/api/sessions/{payment.public_id}/accept").status_code == 200
    Session.objects.filter(pk=payment.pk).update(status="payment")  # its video seat is free
    for medium in ["chat", "video"] * (ROUNDS // 2):
        sessions = [
            factories.SessionFactory(kiosk=factories.KioskFactory(business=business), medium=medium) for _ in tabs
        ]
        calls = [
            lambda c=tab, s=session: c.post(f"/api/sessions/{s.public_id}/accept")
            for tab, session in zip(tabs, sessions, strict=True)
        ]
        results = at_once(calls)

        assert not [r for r in results if isinstance(r, Exception)], results
        assert sorted(r.status_code for r in results) == [200, 409], [r.content for r in results]
        [lost] = [r for r in results if r.status_code == 409]
        assert lost.json()["error"]["code"] == "AGENT_AT_CAPACITY"
        statuses = sorted(Session.objects.filter(pk__in=[s.pk for s in sessions]).values_list("status", flat=True))
        assert statuses == ["active", "pending"]
        assert len(_held(agent)) == 2
        Session.objects.filter(pk__in=[s.pk for s in sessions]).update(status="completed")


@pytest.mark.django_db(transaction=True)
def test_one_agent_accepting_two_video_sessions_at_once_takes_one():
    business = factories.BusinessFactory()
    _capacity(business.owner, 3)
    agent = factories.AgentFactory(owner=business.owner)
    tabs = [signed_in_client(agent), signed_in_client(agent)]
    for _ in range(ROUNDS):
        sessions = [factories.SessionFactory(kiosk=factories.KioskFactory(business=business)) for _ in tabs]
        calls = [
            lambda c=tab, s=session: c.post(f"/api/sessions/{s.public_id}/accept")
            for tab, session in zip(tabs, sessions, strict=True)
        ]
        results = at_once(calls)

        assert not [r for r in results if isinstance(r, Exception)], results
        assert sorted(r.status_code for r in results) == [200, 409], [r.content for r in results]
        [lost] = [r for r in results if r.status_code == 409]
        assert lost.json()["error"]["code"] == "AGENT_IN_CONVERSATION"
        assert _held(agent) == ["video"]
        Session.objects.filter(pk__in=[s.pk for s in sessions]).update(status="completed")
