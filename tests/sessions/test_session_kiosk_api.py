"""Kiosk session calls: start, status poll, cancel; one open session per kiosk; tenancy."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from apps.core.models import DomainEvent
from apps.sessions import services
from apps.sessions.models import Session
from tests import factories
from tests.conftest import kiosk_client_for


def start(client, kiosk, locale="fr-CA"):
    body = {"device_id": str(kiosk.device_id), "customer_locale": locale}
    return client.post("/api/public/sessions/start", body, content_type="application/json")


def test_start_creates_a_pending_session_and_event(kiosk, kiosk_client):
    response = start(kiosk_client, kiosk)
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"session_id", "status", "created_at", "poll_url"}
    assert body["status"] == "pending" and body["session_id"].startswith("ses_")
    assert body["created_at"].endswith("Z")
    session = Session.objects.get(public_id=body["session_id"])
    assert session.kiosk == kiosk and session.owner == kiosk.business.owner and session.customer_locale == "fr-CA"
    event = DomainEvent.objects.get(name="session.started")
    assert event.payload["session_id"] == session.pk
    assert event.payload["session_public_id"] == session.public_id
    assert event.owner_id == session.owner_id


def test_device_id_in_body_must_match_header(kiosk, kiosk_client):
    other = factories.KioskFactory(business=kiosk.business)
    response = start(kiosk_client, other)
    assert response.status_code == 422
    assert "device_id" in response.json()["error"]["details"]
    assert not Session.objects.exists()


@pytest.mark.parametrize("locale", ["", "english please", "x", "en-US-" + "a" * 40])
def test_bad_locale_answers_422(kiosk, kiosk_client, locale):
    response = start(kiosk_client, kiosk, locale)
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_second_start_while_open_answers_409_naming_the_session(kiosk, kiosk_client):
    first = start(kiosk_client, kiosk).json()["session_id"]
    response = start(kiosk_client, kiosk)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "SESSION_IN_PROGRESS"
    assert error["details"]["session_id"] == first and first in error["message"]
    assert Session.objects.count() == 1


def test_start_is_allowed_again_after_the_session_ends(kiosk, kiosk_client):
    first = start(kiosk_client, kiosk).json()["session_id"]
    assert kiosk_client.post(f"/api/public/sessions/{first}/cancel").status_code == 200
    assert start(kiosk_client, kiosk).status_code == 201


def test_status_before_and_after_accept(kiosk, kiosk_client, agent):
    session_id = start(kiosk_client, kiosk).json()["session_id"]
    pending = kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()
    assert pending["status"] == "pending"
    assert pending["agent"] is None and pending["accepted_at"] is None
    assert pending["video_channel"] == session_id

    services.session_accept(public_id=session_id, agent=agent)
    active = kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()
    assert active["status"] == "active"
    assert active["agent"] == {"id": str(agent.pk), "name": agent.name, "avatar_url": None}  # none set
    assert active["accepted_at"].endswith("Z")


@pytest.mark.parametrize("medium", [None, "video", "chat"])
def test_the_status_says_the_medium_the_start_chose(kiosk, kiosk_client, agent, medium):
    # The kiosk app draws a chat session as a chat (no camera) from this, after a reload too.
    body = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"} | ({"medium": medium} if medium else {})
    session_id = kiosk_client.post("/api/public/sessions/start", body, content_type="application/json").json()[
        "session_id"
    ]
    expected = medium or "video"
    assert kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()["medium"] == expected
    services.session_accept(public_id=session_id, agent=agent)
    assert kiosk_client.get(f"/api/public/sessions/{session_id}/status").json()["medium"] == expected


def test_status_poll_runs_at_most_two_queries(kiosk, kiosk_client, agent):
    session_id = start(kiosk_client, kiosk).json()["session_id"]
    services.session_accept(public_id=session_id, agent=agent)
    url = f"/api/public/sessions/{session_id}/status"
    kiosk_client.get(url)  # the heartbeat write happens at most once per 15 s; measure a steady poll
    with CaptureQueriesContext(connection) as queries:
        response = kiosk_client.get(url)
    assert response.status_code == 200 and response.json()["agent"]["id"] == str(agent.pk)
    assert len(queries.captured_queries) <= 2, [q["sql"] for q in queries.captured_queries]


def test_another_kiosks_session_is_not_found(kiosk, kiosk_client, other_business):
    same_owner_kiosk = factories.KioskFactory(business=kiosk.business)
    foreign_kiosk = factories.KioskFactory(business=other_business)
    for other in (same_owner_kiosk, foreign_kiosk):
        other_session = start(kiosk_client_for(other), other).json()["session_id"]
        for method, url in (
            ("get", f"/api/public/sessions/{other_session}/status"),
            ("post", f"/api/public/sessions/{other_session}/cancel"),
        ):
            response = getattr(kiosk_client, method)(url)
            assert response.status_code == 404
            assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    assert Session.objects.filter(status="pending").count() == 2


def test_cancel_pending_and_active_sessions(kiosk, kiosk_client, agent):
    pending = start(kiosk_client, kiosk).json()["session_id"]
    body = kiosk_client.post(f"/api/public/sessions/{pending}/cancel").json()
    assert body["status"] == "abandoned" and body["ended_at"].endswith("Z")

    active = start(kiosk_client, kiosk).json()["session_id"]
    services.session_accept(public_id=active, agent=agent)
    assert kiosk_client.post(f"/api/public/sessions/{active}/cancel").json()["status"] == "abandoned"
    agent.refresh_from_db()
    assert agent.agent_status == "available"
    assert DomainEvent.objects.filter(name="session.ended").count() == 2


def test_cancel_of_an_ended_session_answers_409(kiosk, kiosk_client):
    session_id = start(kiosk_client, kiosk).json()["session_id"]
    kiosk_client.post(f"/api/public/sessions/{session_id}/cancel")
    response = kiosk_client.post(f"/api/public/sessions/{session_id}/cancel")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"


def test_cancel_during_payment_answers_invalid_state(kiosk, kiosk_client, agent):
    session = factories.SessionFactory(kiosk=kiosk, status="payment", agent=agent)
    response = kiosk_client.post(f"/api/public/sessions/{session.public_id}/cancel")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "INVALID_STATE"
    session.refresh_from_db()
    assert session.status == "payment"
