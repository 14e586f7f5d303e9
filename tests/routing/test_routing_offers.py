"""The router against the database (apps/routing/offers.py): waves of K by language and turn,
offers that lapse into misses and breaks, one offer per agent for the oldest session, immediate
offers when an agent becomes available, per-owner settings, the routing tick's recovery."""

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.routing import offers, tasks
from apps.routing.models import Offer, OfferStatus, RoutingSettings
from apps.sessions import services as session_services
from apps.sessions.models import Session
from tests import factories


def to_agent(broadcasts, event, agent) -> list[dict]:
    return [data for channels, name, data in broadcasts if name == event and f"private-agent.{agent.pk}" in channels]


def waiting(kiosk, *, locale="en-US", ago=0) -> Session:
    return factories.SessionFactory(
        kiosk=factories.KioskFactory(business=kiosk.business),
        customer_locale=locale,
        created_at=timezone.now() - timedelta(seconds=ago),
    )


def live_offers(session) -> set[int]:
    return set(Offer.objects.filter(session=session, status=OfferStatus.LIVE).values_list("agent_id", flat=True))


def idle(owner, *, since_seconds, **fields) -> User:
    return factories.AgentFactory(owner=owner, idle_since=timezone.now() - timedelta(seconds=since_seconds), **fields)


def test_a_spanish_speaker_is_offered_only_to_spanish_agents_until_the_any_language_time(kiosk, owner):
    english = idle(owner, since_seconds=100, languages=["en"])
    spanish = idle(owner, since_seconds=10, languages=["es"])
    session = waiting(kiosk, locale="es-MX")
    offers.offers_dispatch()
    assert live_offers(session) == {spanish.pk}
    with time_machine.travel(timezone.now() + timedelta(seconds=29)):
        User.objects.filter(pk__in=[english.pk, spanish.pk]).update(last_seen_at=timezone.now())
        offers.offers_dispatch()
        assert live_offers(session) == {spanish.pk}
    with time_machine.travel(timezone.now() + timedelta(seconds=31)):
        User.objects.filter(pk__in=[english.pk, spanish.pk]).update(last_seen_at=timezone.now())
        offers.offers_dispatch()
        assert live_offers(session) == {spanish.pk, english.pk}
    assert Offer.objects.get(agent=english, status="live").any_language is True
    assert Offer.objects.get(agent=spanish, status="live").any_language is False


def test_a_wave_is_k_agents_the_longest_idle_first_and_owner_before_platform(kiosk, owner):
    newest = idle(owner, since_seconds=5)
    oldest = idle(owner, since_seconds=500)
    middle = idle(owner, since_seconds=50)
    platform = factories.AgentFactory(owner=None, idle_since=timezone.now() - timedelta(seconds=9999))
    second = idle(owner, since_seconds=100)
    session = waiting(kiosk)
    assert offers.offers_dispatch() == 3
    assert live_offers(session) == {oldest.pk, second.pk, middle.pk}
    assert not Offer.objects.filter(agent__in=[newest, platform]).exists()


def test_agents_not_signed_in_on_break_busy_or_of_another_owner_are_not_offered(kiosk, owner):
    factories.AgentFactory(owner=owner, last_seen_at=timezone.now() - timedelta(seconds=11))
    factories.AgentFactory(owner=owner, last_seen_at=None)
    factories.AgentFactory(owner=owner, agent_status=AgentStatus.BREAK)
    factories.AgentFactory(owner=owner, agent_status=AgentStatus.OFFLINE)
    factories.AgentFactory(owner=owner, is_active=False)
    factories.AgentFactory()  # another owner's
    session = waiting(kiosk)
    assert offers.offers_dispatch() == 0
    assert live_offers(session) == set()


def test_an_agent_holds_one_offer_for_the_oldest_session_it_can_take(kiosk, owner):
    agent = idle(owner, since_seconds=10)
    newer = waiting(kiosk, ago=5)
    older = waiting(kiosk, ago=50)
    offers.offers_dispatch()
    offers.offers_dispatch()  # a second run changes nothing
    assert list(Offer.objects.filter(agent=agent).values_list("session_id", "status")) == [(older.pk, "live")]
    assert live_offers(newer) == set()


def test_a_lapsed_offer_is_a_miss_withdrawn_on_the_agents_channel_and_the_next_wave_goes_to_the_next_agents(
    kiosk, owner, broadcasts
):
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=1,
        offer_seconds=15,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=120,
    )
    first = idle(owner, since_seconds=100)
    second = idle(owner, since_seconds=10)
    session = waiting(kiosk)
    offers.offers_dispatch()
    assert live_offers(session) == {first.pk}
    assert to_agent(broadcasts, "SessionIncoming", first)[0]["session"]["id"] == session.public_id
    with time_machine.travel(timezone.now() + timedelta(seconds=16)):
        User.objects.filter(pk__in=[first.pk, second.pk]).update(last_seen_at=timezone.now())
        tasks.route.apply()  # the routing tick: no process had a timer for this offer
    assert live_offers(session) == {second.pk}
    assert Offer.objects.get(agent=first).status == OfferStatus.MISSED
    assert to_agent(broadcasts, "SessionWithdrawn", first) == [
        {"session_id": session.public_id, "status": "pending", "reason": "offer_expired"}
    ]
    first.refresh_from_db()
    assert (first.agent_status, first.missed_offers) == (AgentStatus.AVAILABLE, 1)


def test_m_missed_offers_in_a_row_set_the_agent_on_break_and_tell_it_why(kiosk, owner, broadcasts, agent_client, agent):
    session = waiting(kiosk)
    now = timezone.now()
    for lapse in (1, 2):
        offers.offers_dispatch(now=now)
        assert live_offers(session) == {agent.pk}  # nobody else: the same agent again
        now += timedelta(seconds=16)
        User.objects.filter(pk=agent.pk).update(last_seen_at=now)
        offers.offers_dispatch(now=now)
    agent.refresh_from_db()
    assert (agent.agent_status, agent.status_reason, agent.missed_offers) == ("break", "missed_offers", 2)
    message = "You missed 2 customers. Set yourself available when you are back."
    assert to_agent(broadcasts, "AgentStatusChanged", agent) == [
        {"status": "break", "status_reason": "missed_offers", "status_message": message}
    ]
    assert live_offers(session) == set()
    body = agent_client.get("/api/user").json()
    assert (body["agent_status"], body["status_reason"], body["status_message"]) == ("break", "missed_offers", message)
    # Back: the misses start again, the reason is gone, and the session is offered at once.
    response = agent_client.post("/api/agent/status", {"status": "available"})
    assert response.status_code == 200
    agent.refresh_from_db()
    assert (agent.agent_status, agent.status_reason, agent.missed_offers) == ("available", "", 0)


def test_an_agent_becoming_available_is_offered_the_oldest_session_at_once(
    kiosk, owner, agent, agent_client, django_capture_on_commit_callbacks
):
    User.objects.filter(pk=agent.pk).update(agent_status=AgentStatus.BREAK)
    session = waiting(kiosk)
    offers.offers_dispatch()
    assert live_offers(session) == set()
    with django_capture_on_commit_callbacks(execute=True):
        assert agent_client.post("/api/agent/status", {"status": "available"}).status_code == 200
    assert live_offers(session) == {agent.pk}


def test_an_agent_going_on_break_loses_its_offer_without_a_miss(kiosk, owner, agent, agent_client, broadcasts):
    session = waiting(kiosk)
    offers.offers_dispatch()
    agent_client.post("/api/agent/status", {"status": "break"})
    offers.offers_dispatch()
    assert Offer.objects.get(agent=agent).status == OfferStatus.WITHDRAWN
    assert to_agent(broadcasts, "SessionWithdrawn", agent)[0]["reason"] == "agent_unavailable"
    agent.refresh_from_db()
    assert agent.missed_offers == 0
    assert live_offers(session) == set()


def test_an_ended_session_frees_its_agent_for_the_next_offer(
    kiosk, owner, agent, agent_client, django_capture_on_commit_callbacks
):
    first = waiting(kiosk, ago=20)
    second = waiting(kiosk, ago=10)
    offers.offers_dispatch()
    with django_capture_on_commit_callbacks(execute=True):
        assert agent_client.post(f"/api/sessions/{first.public_id}/accept").status_code == 200
    assert live_offers(second) == set()  # busy
    with django_capture_on_commit_callbacks(execute=True):
        response = agent_client.post(f"/api/sessions/{first.public_id}/end", {"reason": "completed"})
    assert response.status_code == 200
    assert live_offers(second) == {agent.pk}
    agent.refresh_from_db()
    assert agent.idle_since is not None


def test_accept_is_open_to_any_agent_of_the_pool_and_withdraws_its_own_other_offer(kiosk, owner, agent, broadcasts):
    colleague = idle(owner, since_seconds=1)
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=1,
        offer_seconds=15,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=120,
    )
    User.objects.filter(pk=agent.pk).update(idle_since=timezone.now() - timedelta(seconds=99))
    older = waiting(kiosk, ago=20)
    newer = waiting(kiosk, ago=10)
    offers.offers_dispatch()
    assert (live_offers(older), live_offers(newer)) == ({agent.pk}, {colleague.pk})
    # The colleague answers the older session it was not offered: the spec's race is open to it.
    session_services.session_accept(public_id=older.public_id, agent=colleague)
    assert Offer.objects.get(agent=colleague).status == OfferStatus.WITHDRAWN
    assert to_agent(broadcasts, "SessionWithdrawn", colleague)[0]["reason"] == "accepted_elsewhere"
    assert to_agent(broadcasts, "SessionClaimed", agent) == [
        {"session_id": older.public_id, "status": "active", "agent_id": str(colleague.pk)}
    ]
    offers.offers_dispatch()
    assert live_offers(newer) == {agent.pk}


def test_another_owners_agent_is_never_offered_and_its_incoming_list_is_empty(kiosk, other_business):
    outsider = factories.AgentFactory(owner=other_business.owner)
    session = waiting(kiosk)
    offers.offers_dispatch()
    assert live_offers(session) == set()
    from tests.conftest import AgentClient

    client = AgentClient()
    client.sign_in(outsider.email)
    assert client.get("/api/sessions/incoming").json() == {"sessions": []}
    assert client.post(f"/api/sessions/{session.public_id}/accept").status_code == 404


def test_the_incoming_poll_signs_the_agent_in(kiosk, owner, agent_client, agent):
    User.objects.filter(pk=agent.pk).update(last_seen_at=timezone.now() - timedelta(seconds=30))
    session = waiting(kiosk)
    offers.offers_dispatch()
    assert live_offers(session) == set()
    agent_client.get("/api/sessions/incoming")
    offers.offers_dispatch()
    assert live_offers(session) == {agent.pk}


def test_the_routing_tick_is_on_the_beat_schedule_at_its_setting(settings):
    [entry] = [entry for entry in settings.CELERY_BEAT_SCHEDULE.values() if entry["task"] == "routing.route"]
    assert entry["schedule"] == settings.ROUTING_TICK_SECONDS == 1.0


@pytest.mark.django_db(transaction=True)
def test_an_offer_left_by_a_dead_process_lapses_within_two_seconds_on_the_embedded_beat(settings, monkeypatch):
    """Nothing but the beat's routing tick runs here: the offer's row is all that is left."""
    from apps.core import jobs
    from tests.support.processes import wait_until

    settings.TASK_MODE = "thread"
    settings.CELERY_BEAT_SCHEDULE = {"routing.route": {"task": "routing.route", "schedule": 0.5}}
    monkeypatch.setattr(jobs.start_embedded_beat, "started", False, raising=False)
    first = factories.AgentFactory()
    second = factories.AgentFactory(owner=first.owner, idle_since=timezone.now())
    business = factories.BusinessFactory(owner=first.owner)
    session = factories.SessionFactory(kiosk=factories.KioskFactory(business=business))
    lost = Offer.objects.create(session=session, agent=first, expires_at=timezone.now() - timedelta(seconds=1))
    stop = jobs.start_embedded_beat()
    try:
        wait_until(lambda: second.pk in live_offers(session), 2.5, "the next agent offered", every=0.1)
    finally:
        stop.set()
    lost.refresh_from_db()
    assert lost.status == OfferStatus.MISSED
