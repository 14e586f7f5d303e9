"""The customer changes the session's language mid-session (POST /api/public/sessions/{id}/locale):
while the session is open, only on the kiosk's own session, validated with the start's locale
pattern; the serving agent and the agents holding an offer of it hear CustomerLocaleChanged, and
what the agent reads of the session says the new language."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.routing.models import Offer
from apps.sessions.models import Session
from tests import factories
from tests.conftest import kiosk_client_for
from tests.support.transfers import signed_in_client

pytestmark = pytest.mark.django_db


def change(client, session_id, body):
    return client.post(f"/api/public/sessions/{session_id}/locale", body, content_type="application/json")


def told(broadcasts):
    return [(b.channels, b.data) for b in broadcasts if b.event == "CustomerLocaleChanged"]


@pytest.mark.parametrize("status", ["active", "payment"])
def test_the_serving_agent_hears_the_new_language(kiosk_client, kiosk, agent, agent_client, broadcasts, status):
    session = factories.SessionFactory(kiosk=kiosk, status=status, agent=agent, accepted_at=timezone.now())
    response = change(kiosk_client, session.public_id, {"customer_locale": "es-ES"})
    assert response.status_code == 200, response.content
    assert response.json() == {"session_id": session.public_id, "customer_locale": "es-ES"}
    session.refresh_from_db()
    assert session.customer_locale == "es-ES"
    assert told(broadcasts) == [
        ([f"private-agent.{agent.pk}"], {"session_id": session.public_id, "customer_locale": "es-ES"})
    ]
    # What the agent reads of the session in hand says it too.
    current = agent_client.get("/api/sessions/current")
    assert current.status_code == 200, current.content
    assert current.json()["session"]["customer_locale"] == "es-ES"


def test_a_waiting_customers_offers_say_the_new_language(kiosk_client, kiosk, owner, agent, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk)
    colleague = factories.AgentFactory(owner=owner)
    lapsed = factories.AgentFactory(owner=owner)
    expires = timezone.now() + timedelta(seconds=15)
    for someone in (agent, colleague):
        Offer.objects.create(session=session, agent=someone, expires_at=expires)
    Offer.objects.create(session=session, agent=lapsed, status="missed", expires_at=timezone.now())
    response = change(kiosk_client, session.public_id, {"customer_locale": "fr-FR"})
    assert response.status_code == 200, response.content
    body = {"session_id": session.public_id, "customer_locale": "fr-FR"}
    assert told(broadcasts) == [(sorted([f"private-agent.{agent.pk}", f"private-agent.{colleague.pk}"]), body)]
    # The kiosk hears its place in line again (the estimate is for the customer's language).
    assert [b.data["session_id"] for b in broadcasts if b.event == "QueueUpdated"] == [session.public_id]
    # An agent reading the incoming list (the polling fallback) reads the new language.
    incoming = signed_in_client(agent).get("/api/sessions/incoming")
    assert [card["customer_locale"] for card in incoming.json()["sessions"]] == ["fr-FR"]


def test_the_language_it_already_has_tells_nobody(kiosk_client, kiosk, agent, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk, status="active", agent=agent, customer_locale="de-DE")
    response = change(kiosk_client, session.public_id, {"customer_locale": "de-DE"})
    assert response.status_code == 200, response.content
    assert broadcasts == []


def test_without_the_device_headers_or_with_a_wrong_token_it_is_401(kiosk, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk)
    for client in (Client(), Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "wrong"})):
        response = change(client, session.public_id, {"customer_locale": "es-ES"})
        assert response.status_code == 401
        assert response.json()["error"]["code"] in {"DEVICE_TOKEN_INVALID", "UNAUTHENTICATED"}
    assert Session.objects.get(pk=session.pk).customer_locale == "en-US"
    assert broadcasts == []


def test_another_kiosks_session_and_an_unknown_one_are_404(kiosk, business, other_business, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk)
    for other in (factories.KioskFactory(business=business), factories.KioskFactory(business=other_business)):
        response = change(kiosk_client_for(other), session.public_id, {"customer_locale": "es-ES"})
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    response = change(kiosk_client_for(kiosk), "ses_nosuchsession0000000", {"customer_locale": "es-ES"})
    assert response.status_code == 404
    assert Session.objects.get(pk=session.pk).customer_locale == "en-US"
    assert broadcasts == []


@pytest.mark.parametrize("status", ["completed", "cancelled", "timed_out", "failed"])
def test_an_ended_session_is_409(kiosk_client, kiosk, broadcasts, status):
    session = factories.SessionFactory(kiosk=kiosk, status=status, ended_at=timezone.now())
    response = change(kiosk_client, session.public_id, {"customer_locale": "es-ES"})
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"
    assert Session.objects.get(pk=session.pk).customer_locale == "en-US"
    assert broadcasts == []


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"customer_locale": ""},
        {"customer_locale": "español"},
        {"customer_locale": "e"},
        {"customer_locale": "es-" + "x" * 40},
        {"customer_locale": 12},
    ],
)
def test_a_malformed_locale_is_422_as_at_start(kiosk_client, kiosk, body, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk)
    response = change(kiosk_client, session.public_id, body)
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"
    assert "customer_locale" in response.json()["error"]["details"]
    started = kiosk_client.post(
        "/api/public/sessions/start",
        {"device_id": str(kiosk.device_id), "customer_locale": body.get("customer_locale", "")},
        content_type="application/json",
    )
    assert started.status_code == 422  # the same pattern at start
    assert broadcasts == []
