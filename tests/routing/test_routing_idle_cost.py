"""What routing costs while nothing waits (issue 40): the tick and the dispatch after a change
write nothing and take no lock when no session waits and no offer is live, and still route the
moment one waits; the tick's presence step runs once per ROUTING_PRESENCE_SECONDS."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.routing import tasks
from apps.routing.models import Offer, OfferStatus
from tests import factories


def statements(queries) -> list[str]:
    return [query["sql"].split()[0].upper() for query in queries]


def test_the_tick_with_nothing_waiting_and_no_offer_live_reads_two_rows_and_writes_nothing(owner, settings):
    factories.AgentFactory(owner=owner, last_seen_at=timezone.now())
    settings.ROUTING_PRESENCE_SECONDS = 5
    assert tasks.presence_step_due()  # this tick's presence step is taken: the next ones are not due
    with CaptureQueriesContext(connection) as queries:
        assert tasks.route.apply().get() == 0
    assert statements(queries.captured_queries) == ["SELECT", "SELECT"]
    assert not any("advisory" in query["sql"] for query in queries.captured_queries)


def test_the_tick_routes_a_waiting_session_at_once(kiosk, owner, settings):
    settings.ROUTING_PRESENCE_SECONDS = 5
    tasks.presence_step_due()
    agent = factories.AgentFactory(owner=owner, last_seen_at=timezone.now())
    session = factories.SessionFactory(kiosk=kiosk)
    assert tasks.route.apply().get() == 1
    assert Offer.objects.get(session=session, status=OfferStatus.LIVE).agent_id == agent.pk


@pytest.mark.postgres  # the dispatch's lock is PostgreSQL's advisory lock (threads on SQLite)
def test_a_live_offer_alone_still_runs_the_dispatch(kiosk, owner, settings):
    """The offer lapses on the tick although its session is no longer pending (a transfer's)."""
    settings.ROUTING_PRESENCE_SECONDS = 5
    tasks.presence_step_due()
    agent = factories.AgentFactory(owner=owner, last_seen_at=timezone.now())
    session = factories.SessionFactory(kiosk=kiosk)
    tasks.route.apply()
    offer = Offer.objects.get(session=session, status=OfferStatus.LIVE)
    Offer.objects.filter(pk=offer.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    session.status = "cancelled"
    session.save(update_fields=["status"])
    with CaptureQueriesContext(connection) as queries:
        tasks.route.apply()
    assert any("advisory" in query["sql"] for query in queries.captured_queries)
    assert Offer.objects.get(pk=offer.pk).status != OfferStatus.LIVE
    assert User.objects.get(pk=agent.pk).missed_offers == 1


@pytest.mark.postgres  # the dispatch's lock is PostgreSQL's advisory lock (threads on SQLite)
def test_a_change_with_nothing_waiting_runs_no_dispatch_and_one_with_a_session_waiting_does(
    kiosk, owner, django_capture_on_commit_callbacks
):
    factories.AgentFactory(owner=owner, last_seen_at=timezone.now())
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True) as callbacks:
        tasks.dispatch_soon()
    assert len(callbacks) == 1
    assert statements(queries.captured_queries) == ["SELECT", "SELECT"]
    session = factories.SessionFactory(kiosk=kiosk)
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        tasks.dispatch_soon()
    assert any("advisory" in query["sql"] for query in queries.captured_queries)
    assert Offer.objects.filter(session=session, status=OfferStatus.LIVE).count() == 1


def test_the_presence_step_runs_once_per_its_period_and_on_every_tick_when_that_is_shorter(owner, settings):
    settings.ROUTING_PRESENCE_SECONDS = 5
    assert [tasks.presence_step_due() for _ in range(3)] == [True, False, False]
    settings.ROUTING_PRESENCE_SECONDS = settings.ROUTING_TICK_SECONDS
    assert [tasks.presence_step_due() for _ in range(2)] == [True, True]


def test_the_tick_still_sets_an_agent_gone_for_60_seconds_offline(owner, settings):
    settings.ROUTING_PRESENCE_SECONDS = 5
    gone = factories.AgentFactory(owner=owner, last_seen_at=timezone.now() - timedelta(seconds=61))
    tasks.route.apply()
    assert User.objects.get(pk=gone.pk).agent_status == AgentStatus.OFFLINE
