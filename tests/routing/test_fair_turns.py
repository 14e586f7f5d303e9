"""Turns even out over a shift, against the database (apps/routing/offers.py): among agents
equally loaded, the one who took the fewest customers within ROUTING_FAIRNESS_HOURS is offered
first (before the longest idle); and every waiting customer's first offer comes before any
wave's second, so a wave's spare offer never takes the agent a younger customer would lack."""

from datetime import timedelta

from django.test import override_settings
from django.utils import timezone

from apps.routing import offers
from apps.routing.models import Offer, OfferStatus, RoutingSettings
from apps.sessions.models import Assignment, AssignmentVia, SessionStatus
from tests import factories


def _idle(owner, seconds: int):
    return factories.AgentFactory(owner=owner, idle_since=timezone.now() - timedelta(seconds=seconds))


def _waiting(business, ago: int):
    return factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business), created_at=timezone.now() - timedelta(seconds=ago)
    )


def _took(agent, business, *, hours_ago: float) -> None:
    """A customer the agent took (and finished) that long ago."""
    at = timezone.now() - timedelta(hours=hours_ago)
    session = _waiting(business, 0)
    session.status, session.agent, session.accepted_at, session.ended_at = SessionStatus.COMPLETED, agent, at, at
    session.save()
    Assignment.objects.create(session=session, agent=agent, via=AssignmentVia.ACCEPT, started_at=at, ended_at=at)


def _offered(session) -> set[int]:
    return set(Offer.objects.filter(session=session, status=OfferStatus.LIVE).values_list("agent_id", flat=True))


def _wave(owner, size: int) -> None:
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=size,
        offer_seconds=15,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=120,
    )


def test_of_two_free_agents_the_one_who_took_fewer_this_shift_is_offered_first(owner, business):
    _wave(owner, 1)
    longest_idle, fewer = _idle(owner, 500), _idle(owner, 5)
    _took(longest_idle, business, hours_ago=1)
    _took(longest_idle, business, hours_ago=2)
    _took(fewer, business, hours_ago=3)
    _took(fewer, business, hours_ago=13)  # before this shift (12 hours): not counted
    session = _waiting(business, 0)
    offers.offers_dispatch()
    assert _offered(session) == {fewer.pk}


@override_settings(ROUTING_FAIRNESS_HOURS=0.5)
def test_the_shift_is_a_setting(owner, business):
    _wave(owner, 1)
    longest_idle = _idle(owner, 500)
    _idle(owner, 5)
    _took(longest_idle, business, hours_ago=1)  # outside half an hour: equal turns, longest idle first
    session = _waiting(business, 0)
    offers.offers_dispatch()
    assert _offered(session) == {longest_idle.pk}


def test_every_waiting_customer_is_offered_before_a_wave_takes_a_second_agent(owner, business):
    _wave(owner, 2)
    agents = [_idle(owner, 300), _idle(owner, 200), _idle(owner, 100)]
    older, younger = _waiting(business, 20), _waiting(business, 10)
    offers.offers_dispatch()
    # The older customer's first offer, the younger's, then the older's second.
    assert _offered(older) == {agents[0].pk, agents[2].pk}
    assert _offered(younger) == {agents[1].pk}
