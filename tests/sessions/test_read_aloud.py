"""Reading the cart aloud (POST /api/sessions/{id}/read-aloud): only the agent serving the session,
while it serves; CartReadAloud goes to the kiosk's channel only. The agent's offer, accept and
session bodies carry `accessible_mode`. Over a real WebSocket in
tests/realtime/test_read_aloud_live.py."""

import pytest
from django.utils import timezone

from apps.routing import offers
from apps.sessions.models import Assignment
from tests import factories
from tests.conftest import AgentClient

pytestmark = pytest.mark.django_db


@pytest.fixture
def served(kiosk, agent):
    return factories.SessionFactory(
        kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now(), accessible_mode=True
    )


def read_aloud(client, session_id):
    return client.post(f"/api/sessions/{session_id}/read-aloud", content_type="application/json")


@pytest.mark.parametrize("status", ["active", "payment"])
def test_the_serving_agent_has_the_kiosk_read_the_cart_aloud(agent_client, served, broadcasts, status):
    served.status = status
    served.save(update_fields=["status"])
    response = read_aloud(agent_client, served.public_id)
    assert response.status_code == 200, response.content
    assert response.json() == {"session_id": served.public_id}
    assert [(b.channels, b.event, b.data) for b in broadcasts] == [
        ([f"private-kiosk.{served.kiosk_id}"], "CartReadAloud", {"session_id": served.public_id})
    ]
    served.refresh_from_db()
    assert served.status == status  # nothing changes


def test_a_session_not_in_accessible_mode_is_read_aloud_too(agent_client, served, broadcasts):
    served.accessible_mode = False
    served.save(update_fields=["accessible_mode"])
    assert read_aloud(agent_client, served.public_id).status_code == 200
    assert [b.event for b in broadcasts] == ["CartReadAloud"]


def test_another_owners_agent_a_colleague_and_an_unknown_session_are_404(served, other_business, owner, broadcasts):
    stranger = factories.AgentFactory(owner=other_business.owner)
    colleague = factories.AgentFactory(owner=owner)
    for someone in (stranger, colleague):
        client = AgentClient()
        assert client.sign_in(someone.email).status_code == 200
        response = read_aloud(client, served.public_id)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    client = AgentClient()
    assert client.sign_in(colleague.email).status_code == 200
    assert read_aloud(client, "ses_unknown").status_code == 404
    assert broadcasts == []


def test_a_session_handed_to_a_colleague_is_403_for_its_former_agent(agent_client, served, agent, owner, broadcasts):
    colleague = factories.AgentFactory(owner=owner)
    Assignment.objects.create(
        session=served, agent=agent, via="accept", started_at=served.accepted_at, ended_at=timezone.now()
    )
    served.agent = colleague
    served.save(update_fields=["agent"])
    response = read_aloud(agent_client, served.public_id)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "SESSION_NOT_OWNED"
    assert broadcasts == []


@pytest.mark.parametrize(
    ("status", "code"), [("completed", "SESSION_ALREADY_ENDED"), ("abandoned", "SESSION_ALREADY_ENDED")]
)
def test_an_ended_session_is_409_in_the_envelope(agent_client, served, broadcasts, status, code):
    served.status = status
    served.ended_at = timezone.now()
    served.save(update_fields=["status", "ended_at"])
    response = read_aloud(agent_client, served.public_id)
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == code
    assert error["message"]
    assert broadcasts == []


def test_signed_out_it_is_401(client, served):
    assert read_aloud(client, served.public_id).status_code == 401


def test_the_offer_the_accept_and_the_session_reads_say_accessible_mode(kiosk, agent, agent_client, broadcasts):
    session = factories.SessionFactory(kiosk=kiosk, accessible_mode=True)
    offers.offers_dispatch()
    incoming = agent_client.get("/api/sessions/incoming").json()["sessions"]
    assert [(entry["id"], entry["accessible_mode"]) for entry in incoming] == [(session.public_id, True)]
    offered = [b.data["session"] for b in broadcasts if b.event == "SessionIncoming"]
    assert [body["accessible_mode"] for body in offered] == [True]
    accepted = agent_client.post(f"/api/sessions/{session.public_id}/accept")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["session"]["accessible_mode"] is True
    assert agent_client.get("/api/sessions/current").json()["session"]["accessible_mode"] is True
    assert agent_client.get(f"/api/sessions/{session.public_id}").json()["session"]["accessible_mode"] is True
    mine = agent_client.get("/api/sessions/mine").json()["data"]
    assert [row["accessible_mode"] for row in mine] == [True]
