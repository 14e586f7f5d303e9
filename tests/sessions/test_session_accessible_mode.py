"""The kiosk's accessible mode on the session: started with it (POST .../sessions/start's
`accessible_mode`) or turned on and off during it (POST /api/public/sessions/{id}/accessible);
the status body says it, the cached copy of the poll included; bad input, another kiosk's session
and an ended one answer the error envelope."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.routing.models import Offer
from apps.sessions.models import Session
from tests import factories
from tests.conftest import kiosk_client_for

pytestmark = pytest.mark.django_db


def turn(client, session_id, body):
    return client.post(f"/api/public/sessions/{session_id}/accessible", body, content_type="application/json")


def status_of(client, session_id) -> dict:
    response = client.get(f"/api/public/sessions/{session_id}/status")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_session_started_in_accessible_mode_says_so(kiosk_client, kiosk):
    started = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "fr-FR", "accessible_mode": True},
        content_type="application/json",
    )
    assert started.status_code == 201, started.content
    session_id = started.json()["session_id"]
    assert Session.objects.get(public_id=session_id).accessible_mode is True
    assert status_of(kiosk_client, session_id)["accessible_mode"] is True


def test_a_session_started_without_it_is_not(kiosk_client, kiosk):
    started = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        content_type="application/json",
    )
    assert started.status_code == 201, started.content
    assert status_of(kiosk_client, started.json()["session_id"])["accessible_mode"] is False


@pytest.mark.parametrize("status", ["pending", "active", "payment"])
def test_turned_on_and_off_during_the_session_the_poll_follows(kiosk_client, kiosk, agent, status):
    served = {"agent": agent, "accepted_at": timezone.now()} if status != "pending" else {}
    session = factories.SessionFactory(kiosk=kiosk, status=status, **served)
    assert status_of(kiosk_client, session.public_id)["accessible_mode"] is False  # a cached copy now
    response = turn(kiosk_client, session.public_id, {"accessible_mode": True})
    assert response.status_code == 200, response.content
    assert response.json() == {"session_id": session.public_id, "accessible_mode": True}
    assert status_of(kiosk_client, session.public_id)["accessible_mode"] is True  # the copy was dropped
    again = turn(kiosk_client, session.public_id, {"accessible_mode": True})  # the same value: no change
    assert again.status_code == 200 and again.json()["accessible_mode"] is True
    off = turn(kiosk_client, session.public_id, {"accessible_mode": False})
    assert off.status_code == 200 and off.json()["accessible_mode"] is False
    assert status_of(kiosk_client, session.public_id)["accessible_mode"] is False
    assert Session.objects.get(pk=session.pk).accessible_mode is False


@pytest.mark.parametrize(
    "body", [{}, {"accessible_mode": "maybe"}, {"accessible_mode": None}, {"accessible_mode": [1]}]
)
def test_without_a_boolean_it_is_422(kiosk_client, kiosk, body):
    session = factories.SessionFactory(kiosk=kiosk)
    response = turn(kiosk_client, session.public_id, body)
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "accessible_mode" in response.json()["error"]["details"]
    assert Session.objects.get(pk=session.pk).accessible_mode is False


def test_a_bad_value_at_start_is_422_too(kiosk_client, kiosk):
    started = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": "en-US", "accessible_mode": "maybe"},
        content_type="application/json",
    )
    assert started.status_code == 422, started.content
    assert "accessible_mode" in started.json()["error"]["details"]
    assert not Session.objects.filter(kiosk=kiosk).exists()


def test_without_the_device_headers_or_with_a_wrong_token_it_is_401(kiosk):
    session = factories.SessionFactory(kiosk=kiosk)
    for client in (Client(), Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "wrong"})):
        response = turn(client, session.public_id, {"accessible_mode": True})
        assert response.status_code == 401
        assert response.json()["error"]["code"] in {"DEVICE_TOKEN_INVALID", "UNAUTHENTICATED"}
    assert Session.objects.get(pk=session.pk).accessible_mode is False


def test_another_kiosks_session_and_an_unknown_one_are_404(kiosk, business, other_business):
    session = factories.SessionFactory(kiosk=kiosk)
    for other in (factories.KioskFactory(business=business), factories.KioskFactory(business=other_business)):
        response = turn(kiosk_client_for(other), session.public_id, {"accessible_mode": True})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    response = turn(kiosk_client_for(kiosk), "ses_nosuchsession0000000", {"accessible_mode": True})
    assert response.status_code == 404
    assert Session.objects.get(pk=session.pk).accessible_mode is False


@pytest.mark.parametrize("status", ["completed", "cancelled", "timed_out", "failed"])
def test_an_ended_session_is_409(kiosk_client, kiosk, status):
    session = factories.SessionFactory(kiosk=kiosk, status=status, ended_at=timezone.now())
    response = turn(kiosk_client, session.public_id, {"accessible_mode": True})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"
    assert Session.objects.get(pk=session.pk).accessible_mode is False


def test_a_waiting_customers_offers_hear_the_mode(kiosk_client, kiosk, owner, agent, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk)
    colleague = factories.AgentFactory(owner=owner)
    lapsed = factories.AgentFactory(owner=owner)
    expires = timezone.now() + timedelta(seconds=15)
    for someone in (agent, colleague):
        Offer.objects.create(session=session, agent=someone, expires_at=expires)
    Offer.objects.create(session=session, agent=lapsed, status="missed", expires_at=timezone.now())
    response = turn(kiosk_client, session.public_id, {"accessible_mode": True})
    assert response.status_code == 200, response.content
    told = [(b.channels, b.data) for b in broadcasts if b.event == "OfferAccessibleModeChanged"]
    channels = sorted([f"private-agent.{agent.pk}", f"private-agent.{colleague.pk}"])
    assert told == [(channels, {"session_id": session.public_id, "accessible_mode": True})]
