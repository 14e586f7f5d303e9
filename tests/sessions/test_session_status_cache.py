"""The kiosk poll serves a cached status body (apps.sessions.status_cache) and must never serve
a stale one: after every transition of the state machine the next poll shows it, a copy read
while a transition commits is not served after it (PostgreSQL, two connections: marked
`postgres`), and a copy is never served to another kiosk."""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.cache import increment
from apps.routing.queue import queue_of
from apps.sessions import ending, selectors, services, status_cache
from apps.sessions.bodies import status_body
from apps.sessions.models import Session
from apps.sessions.state_machine import TRANSITIONS
from tests import factories
from tests.conftest import kiosk_client_for


def poll(client, session: Session) -> dict:
    response = client.get(f"/api/public/sessions/{session.public_id}/status")
    assert response.status_code == 200, response.content
    return response.json()


def database_body(session: Session) -> dict:
    read = selectors.session_for_kiosk(kiosk=session.kiosk, public_id=session.public_id)
    return status_body(read, queue=queue_of(read))


def apply(session: Session, action: str, agent) -> None:
    """Drive `action` through the service that owns it."""
    if action == "accept":
        services.session_accept(public_id=session.public_id, agent=agent)
    elif action == "kiosk_cancel":
        services.session_cancel_by_kiosk(public_id=session.public_id, kiosk=session.kiosk)
    elif action == "timeout":
        Session.objects.filter(pk=session.pk).update(created_at=timezone.now() - timedelta(hours=1))
        assert services.sessions_abandon_stale(older_than_seconds=60) == 1
    elif action.startswith("end:"):
        ending.session_end(public_id=session.public_id, agent=agent, reason=action.split(":")[1], notes="")
    else:
        with transaction.atomic():
            locked = Session.objects.select_for_update().get(pk=session.pk)
            if action == "payment_succeeded":
                services.session_complete_paid(session=locked)
            else:
                services.session_move(session=locked, action=action)


@pytest.mark.parametrize(("from_status", "action"), sorted(TRANSITIONS))
def test_the_poll_after_any_transition_shows_it(kiosk, kiosk_client, agent, from_status, action):
    alone = from_status == "pending" or action.startswith("self_service")  # no agent holds it
    accepted = {} if alone else {"agent": agent, "accepted_at": timezone.now()}
    session = factories.SessionFactory(kiosk=kiosk, status=from_status, **accepted)
    assert poll(kiosk_client, session)["status"] == from_status
    with CaptureQueriesContext(connection) as queries:
        assert poll(kiosk_client, session)["status"] == from_status
    assert not queries.captured_queries  # served from the cached copy

    apply(session, action, agent)
    body = poll(kiosk_client, session)
    assert body["status"] == TRANSITIONS[(from_status, action)]
    assert body == database_body(session)


def test_a_copy_read_just_before_a_transition_is_not_served_after_it(kiosk, kiosk_client, agent):
    session = factories.SessionFactory(kiosk=kiosk)

    def read_then_accept() -> dict:
        stale = database_body(session)  # the row as it was ...
        services.session_accept(public_id=session.public_id, agent=agent)  # ... moves before it is stored
        return stale

    first = status_cache.status_body(kiosk_id=kiosk.pk, public_id=session.public_id, read=read_then_accept)
    assert first["status"] == "pending"
    assert poll(kiosk_client, session)["status"] == "active"


@pytest.mark.postgres  # two connections, one holding a row lock while the other reads
@pytest.mark.django_db(transaction=True)
def test_a_copy_read_while_a_transition_commits_is_not_served_after_it():
    """The transition holds its transaction open while a poll misses, reads the old row and
    stores it; once the transition commits, the next poll shows the new status."""
    kiosk = factories.KioskFactory()
    agent = factories.AgentFactory(owner=kiosk.business.owner)
    session = factories.SessionFactory(kiosk=kiosk)
    client = kiosk_client_for(kiosk)
    moved, poll_done = threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def accept_and_hold() -> None:
        try:
            with transaction.atomic():
                services.session_accept(public_id=session.public_id, agent=agent)
                moved.set()
                assert poll_done.wait(10)
        except BaseException as exc:
            failures.append(exc)
            moved.set()
        finally:
            connection.close()

    accepter = threading.Thread(target=accept_and_hold)
    accepter.start()
    try:
        assert moved.wait(10) and not failures, failures
        assert poll(client, session)["status"] == "pending"  # not committed yet: the old row, stored
    finally:
        poll_done.set()  # whatever failed above, the transition ends now: no lock outlives the test
        accepter.join(10)
    assert not accepter.is_alive() and not failures, failures
    assert poll(client, session)["status"] == "active"
    assert poll(client, session)["agent"]["id"] == str(agent.pk)


def test_a_copy_is_never_served_to_another_kiosk(kiosk, kiosk_client, other_business):
    session = factories.SessionFactory(kiosk=kiosk)
    assert poll(kiosk_client, session)["status"] == "pending"  # cached for its own kiosk
    for other in (factories.KioskFactory(business=kiosk.business), factories.KioskFactory(business=other_business)):
        response = kiosk_client_for(other).get(f"/api/public/sessions/{session.public_id}/status")
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    assert poll(kiosk_client, session)["status"] == "pending"


def test_a_cancel_answer_and_the_next_poll_agree(kiosk, kiosk_client):
    session = factories.SessionFactory(kiosk=kiosk)
    poll(kiosk_client, session)
    cancelled = kiosk_client.post(f"/api/public/sessions/{session.public_id}/cancel").json()
    assert cancelled["status"] == "abandoned"
    assert poll(kiosk_client, session) == cancelled


@override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}})
def test_increment_on_the_embedded_local_memory_cache():
    assert [increment("counter-under-test", 60) for _ in range(3)] == [1, 2, 3]
