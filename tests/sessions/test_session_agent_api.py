"""Agent session calls: incoming list, atomic accept, end with a reason; tenancy."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.core.models import DomainEvent
from apps.routing import offers
from apps.routing.models import Offer
from apps.sessions.models import Assignment, Session
from tests import factories
from tests.conftest import AgentClient


def signed_in(agent) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    return client


@pytest.fixture
def pending(kiosk):
    return factories.SessionFactory(kiosk=kiosk)


def test_incoming_lists_exactly_the_callers_offer_of_the_oldest_session(agent, agent_client, kiosk, other_business):
    now = timezone.now()
    newer = factories.SessionFactory(kiosk=kiosk, created_at=now - timedelta(seconds=5))
    older = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=kiosk.business),
        created_at=now - timedelta(seconds=42),
        customer_locale="es-MX",
    )
    factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business), status="active")
    assert agent_client.get("/api/sessions/incoming").json() == {"sessions": []}  # nothing offered yet
    assert offers.offers_dispatch() == 1  # the agent, for the older one (the other owner has no agent)
    body = agent_client.get("/api/sessions/incoming").json()
    assert [s["id"] for s in body["sessions"]] == [older.public_id]
    first = body["sessions"][0]
    assert set(first) == {
        "id",
        "kiosk",
        "business",
        "created_at",
        "waiting_seconds",
        "customer_locale",
        "offer_expires_at",
        "accessible_mode",
        "medium",
        "transfer_from",
    }
    assert first["medium"] == "video"
    assert first["business"] == {"id": str(kiosk.business.pk), "name": kiosk.business.name}
    assert 41 <= first["waiting_seconds"] <= 45
    assert first["customer_locale"] == "es-MX"
    assert first["transfer_from"] is None  # a waiting customer, not a colleague's transfer
    offer = Offer.objects.get(agent=agent, status="live")
    assert first["offer_expires_at"] == offer.expires_at.isoformat().replace("+00:00", "Z")
    assert (offer.expires_at - offer.created_at) == timedelta(seconds=15)
    assert newer.offers.count() == 0


def test_an_offer_made_while_the_list_is_read_counts_its_wait_to_when_it_is_described(
    agent, agent_client, kiosk, monkeypatch
):
    """Routing runs beside the request: an offer made after the request began must not count as
    having more seconds left than the offer's window (the dashboard showed "61 s to answer")."""
    start = timezone.now()
    session = factories.SessionFactory(kiosk=kiosk, created_at=start - timedelta(milliseconds=500))
    read = offers.current_offer

    with time_machine.travel(start, tick=False) as clock:

        def offer_made_meanwhile(user, *, now):
            clock.shift(2)  # the router makes its offer two seconds into the request
            made = timezone.now()
            Offer.objects.create(
                session=session, agent=agent, status="live", created_at=made, expires_at=made + timedelta(seconds=15)
            )
            return read(user, now=now)

        monkeypatch.setattr(offers, "current_offer", offer_made_meanwhile)
        [described] = agent_client.get("/api/sessions/incoming").json()["sessions"]
    assert described["waiting_seconds"] == 2  # counted to the answer, not to the request's start
    expires = datetime.fromisoformat(described["offer_expires_at"])
    created = datetime.fromisoformat(described["created_at"])
    # What the dashboard counts down from (static/agent/offer.js offerSeconds): at most the window.
    assert (expires - created).total_seconds() - described["waiting_seconds"] <= 15.5


def test_incoming_is_an_empty_array_when_nothing_waits(agent_client):
    assert agent_client.get("/api/sessions/incoming").json() == {"sessions": []}


def test_platform_agent_is_offered_any_owners_session(kiosk, other_business):
    theirs = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    pool_agent = factories.AgentFactory(owner=None)
    offers.offers_dispatch()
    ids = [s["id"] for s in signed_in(pool_agent).get("/api/sessions/incoming").json()["sessions"]]
    assert ids == [theirs.public_id]


def test_accept_claims_the_session(agent, agent_client, pending):
    response = agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    assert response.status_code == 200
    assert response.json() == {
        "session": {
            "id": pending.public_id,
            "status": "active",
            "video_channel": pending.public_id,
            "kiosk": {"id": str(pending.kiosk.pk), "name": pending.kiosk.name},
            "business": {"id": str(pending.business.pk), "name": pending.business.name},
            "customer_locale": pending.customer_locale,  # the agent's header says the customer's language
            "accessible_mode": False,  # the card and session view say it when true
        }
    }
    pending.refresh_from_db()
    agent.refresh_from_db()
    assert pending.agent == agent and pending.accepted_at is not None
    assert agent.agent_status == "busy"
    event = DomainEvent.objects.get(name="session.accepted")
    assert event.payload["agent_id"] == agent.pk and event.payload["session_id"] == pending.pk


def test_accept_opens_the_agents_assignment_and_the_end_closes_it(agent, agent_client, pending):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    served = Assignment.objects.get(session=pending)
    pending.refresh_from_db()
    assert (served.agent_id, served.via, served.started_at, served.ended_at) == (
        agent.pk,
        "accept",
        pending.accepted_at,
        None,
    )
    response = agent_client.post(f"/api/sessions/{pending.public_id}/end", {"reason": "customer_abandoned"})
    assert response.status_code == 200
    served.refresh_from_db()
    pending.refresh_from_db()
    assert served.ended_at == pending.ended_at is not None


def test_second_agent_gets_409_already_accepted(agent, agent_client, pending, owner):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    loser = signed_in(factories.AgentFactory(owner=owner))
    response = loser.post(f"/api/sessions/{pending.public_id}/accept")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    pending.refresh_from_db()
    assert pending.agent == agent


def test_a_lost_accept_is_refused_without_locks(agent_client, pending, owner):
    """Most of a burst of agents read the session already claimed: they answer 409 from that read,
    without the transaction's row locks (bench/accept_race.py measures the burst)."""
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    loser = signed_in(factories.AgentFactory(owner=owner))
    with CaptureQueriesContext(connection) as queries:
        response = loser.post(f"/api/sessions/{pending.public_id}/accept")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    assert not [query["sql"] for query in queries if "FOR UPDATE" in query["sql"]]


def test_a_lost_accept_by_an_agent_with_a_live_session_says_so_first(agent_client, pending, kiosk, owner):
    """The lock-free refusal keeps the locked path's order of errors."""
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    busy = signed_in(factories.AgentFactory(owner=owner))
    own = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    assert busy.post(f"/api/sessions/{own.public_id}/accept").status_code == 200
    response = busy.post(f"/api/sessions/{pending.public_id}/accept")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "AGENT_HAS_ACTIVE_SESSION"


def test_accept_of_another_owners_session_is_not_found(agent_client, other_business):
    foreign = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    for action in ("accept", "end"):
        response = agent_client.post(f"/api/sessions/{foreign.public_id}/{action}", {"reason": "completed"})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    foreign.refresh_from_db()
    assert foreign.status == "pending" and foreign.agent is None


def test_a_lost_accept_of_another_owners_session_is_not_found_and_a_platform_agents_is_409(
    agent_client, other_business
):
    """The lock-free read is tenant-scoped as the locked one: another owner's claimed session is
    404 (its existence is not told), while a platform agent, who sees every owner's, hears 409."""
    foreign = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    assert (
        signed_in(factories.AgentFactory(owner=other_business.owner))
        .post(f"/api/sessions/{foreign.public_id}/accept")
        .status_code
        == 200
    )
    response = agent_client.post(f"/api/sessions/{foreign.public_id}/accept")
    assert (response.status_code, response.json()["error"]["code"]) == (404, "SESSION_NOT_FOUND")
    response = signed_in(factories.AgentFactory(owner=None)).post(f"/api/sessions/{foreign.public_id}/accept")
    assert (response.status_code, response.json()["error"]["code"]) == (409, "SESSION_ALREADY_ACCEPTED")


def test_accept_of_an_ended_session_answers_409(agent_client, pending):
    Session.objects.filter(pk=pending.pk).update(status="abandoned", ended_at=timezone.now())
    response = agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"


def test_agent_with_a_live_session_cannot_accept_another(agent_client, pending, kiosk):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    second = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    response = agent_client.post(f"/api/sessions/{second.public_id}/accept")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "AGENT_HAS_ACTIVE_SESSION"
    second.refresh_from_db()
    assert second.status == "pending"


@pytest.mark.parametrize(
    ("reason", "status"),
    [
        ("completed", "completed"),
        ("customer_abandoned", "abandoned"),
        ("refused_service", "abandoned"),
        ("technical_issue", "failed"),
    ],
)
def test_end_maps_reason_to_status(agent, agent_client, pending, reason, status):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    with time_machine.travel(timezone.now() + timedelta(seconds=95)):
        response = agent_client.post(f"/api/sessions/{pending.public_id}/end", {"reason": reason, "notes": "n"})
    assert response.status_code == 200, response.content
    body = response.json()["session"]
    assert set(body) == {"id", "status", "ended_at", "duration_seconds"}
    assert body["status"] == status and 94 <= body["duration_seconds"] <= 97
    pending.refresh_from_db()
    agent.refresh_from_db()
    assert pending.end_reason == reason and pending.notes == "n"
    assert agent.agent_status == "available"
    payload = DomainEvent.objects.get(name="session.ended").payload
    assert payload["session_id"] == pending.pk and payload["agent_id"] == agent.pk
    assert payload["duration_seconds"] == body["duration_seconds"]
    assert payload["cost_cents"] == 2 * 60 and payload["cost_dollars"] == "1.20"  # two started minutes, free plan
    assert payload["ended_at"].endswith("Z")


def test_only_the_accepting_agent_may_end(agent_client, pending, owner):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    other = signed_in(factories.AgentFactory(owner=owner))
    response = other.post(f"/api/sessions/{pending.public_id}/end", {"reason": "completed"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "SESSION_NOT_OWNED"
    pending.refresh_from_db()
    assert pending.status == "active"


def test_end_twice_answers_409_already_ended(agent_client, pending):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    agent_client.post(f"/api/sessions/{pending.public_id}/end", {"reason": "completed"})
    response = agent_client.post(f"/api/sessions/{pending.public_id}/end", {"reason": "completed"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"
    assert DomainEvent.objects.filter(name="session.ended").count() == 1


def test_end_of_a_pending_session_is_refused(agent_client, pending):
    response = agent_client.post(f"/api/sessions/{pending.public_id}/end", {"reason": "completed"})
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "SESSION_NOT_OWNED"


@pytest.mark.parametrize("body", [{}, {"reason": "bored"}, {"reason": "completed", "notes": "x" * 2001}])
def test_end_with_bad_input_answers_422(agent_client, pending, body):
    agent_client.post(f"/api/sessions/{pending.public_id}/accept")
    response = agent_client.post(f"/api/sessions/{pending.public_id}/end", body)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    pending.refresh_from_db()
    assert pending.status == "active"


def test_completed_cannot_be_set_by_the_agent_during_payment(agent, agent_client, kiosk):
    in_payment = factories.SessionFactory(kiosk=kiosk, agent=agent, status="payment", accepted_at=timezone.now())
    response = agent_client.post(f"/api/sessions/{in_payment.public_id}/end", {"reason": "completed"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "INVALID_STATE"
    ok = agent_client.post(f"/api/sessions/{in_payment.public_id}/end", {"reason": "customer_abandoned"})
    assert ok.status_code == 200 and ok.json()["session"]["status"] == "abandoned"


def test_session_calls_need_a_signed_in_agent(pending):
    anonymous = AgentClient()
    assert anonymous.get("/api/sessions/incoming").status_code == 401
    response = anonymous.post(f"/api/sessions/{pending.public_id}/accept")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "UNAUTHENTICATED"
