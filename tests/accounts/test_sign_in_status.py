"""The status an agent signs in with (docs/decisions/agent-dashboard.md "Sign-in status"): signing in to the
dashboard (POST /api/login, or its 2FA completion) makes an offline agent available at once, or
on break where the owner's routing settings say agents start on break; an agent already
available, busy or on break keeps its status."""

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.accounts.models import AgentStatus, StatusReason, User
from apps.routing.models import Offer, OfferStatus, RoutingSettings
from tests import factories
from tests.conftest import AgentClient
from tests.support.auth import current_code, enrol_totp


def _start_on_break(owner) -> None:
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=3,
        offer_seconds=15,
        any_language_after_seconds=30,
        misses_before_break=2,
        self_service_after_seconds=120,
        agents_start_on_break=True,
    )


@pytest.fixture
def away_agent(owner):
    """An agent the server set offline yesterday (gone), after two missed offers."""
    long_ago = timezone.now() - timedelta(hours=20)
    return factories.AgentFactory(
        owner=owner,
        agent_status=AgentStatus.OFFLINE,
        status_reason=StatusReason.GONE,
        missed_offers=2,
        last_seen_at=long_ago,
        idle_since=long_ago,
    )


def _password_step(agent) -> tuple[AgentClient, dict]:
    client = AgentClient()
    response = client.sign_in(agent.email)
    assert response.status_code == 200, response.content
    return client, response.json()


def _two_factor_sign_in(agent) -> tuple[AgentClient, dict]:
    device = enrol_totp(agent)
    client, body = _password_step(agent)
    assert body["status"] == "2fa_required"
    agent.refresh_from_db()
    assert agent.agent_status == AgentStatus.OFFLINE  # the password alone changes nothing
    response = client.post("/api/login/2fa", {"challenge_id": body["challenge_id"], "code": current_code(device)})
    assert response.status_code == 200, response.content
    return client, response.json()


SIGN_INS = {"password": _password_step, "2fa": _two_factor_sign_in}


@pytest.mark.parametrize("sign_in", SIGN_INS.values(), ids=SIGN_INS.keys())
def test_an_offline_agent_signing_in_is_available_and_offered_a_waiting_customer_at_once(
    sign_in, away_agent, kiosk, broadcasts, django_capture_on_commit_callbacks
):
    session = factories.SessionFactory(kiosk=kiosk, customer_locale="en-US")
    before = timezone.now()

    with django_capture_on_commit_callbacks(execute=True):
        client, body = sign_in(away_agent)

    assert body["status"] == "ok"
    user = body["user"]
    assert (user["agent_status"], user["status_reason"], user["status_message"]) == ("available", "", "")
    away_agent.refresh_from_db()
    assert away_agent.agent_status == AgentStatus.AVAILABLE
    assert (away_agent.status_reason, away_agent.missed_offers) == ("", 0)
    assert away_agent.idle_since >= before and away_agent.last_seen_at >= before
    assert client.get("/api/user").json()["agent_status"] == "available"
    # Told on its own channel, and the router offered it the waiting customer without a press.
    statuses = [data for channels, name, data in broadcasts if name == "AgentStatusChanged"]
    assert statuses and statuses[-1]["status"] == "available"
    assert Offer.objects.filter(session=session, agent=away_agent, status=OfferStatus.LIVE).exists()
    assert client.get("/api/sessions/incoming").json()["sessions"][0]["id"] == session.public_id


@pytest.mark.parametrize("sign_in", SIGN_INS.values(), ids=SIGN_INS.keys())
def test_where_agents_start_on_break_an_offline_agent_signs_in_on_break_and_is_offered_nobody(
    sign_in, away_agent, owner, kiosk, django_capture_on_commit_callbacks
):
    _start_on_break(owner)
    session = factories.SessionFactory(kiosk=kiosk, customer_locale="en-US")

    with django_capture_on_commit_callbacks(execute=True):
        client, body = sign_in(away_agent)

    assert (body["user"]["agent_status"], body["user"]["status_message"]) == ("break", "")
    away_agent.refresh_from_db()
    assert (away_agent.agent_status, away_agent.status_reason) == (AgentStatus.BREAK, "")
    assert not Offer.objects.filter(session=session).exists()
    assert client.get("/api/sessions/incoming").json() == {"sessions": []}


def test_the_setting_is_per_owner(away_agent, owner):
    _start_on_break(factories.OwnerFactory())  # another owner's setting
    _, body = _password_step(away_agent)
    assert body["user"]["agent_status"] == "available"


@pytest.mark.parametrize("status", [AgentStatus.BUSY, AgentStatus.BREAK, AgentStatus.AVAILABLE])
def test_an_agent_already_at_work_keeps_its_status_when_it_signs_in_again(status, owner, broadcasts):
    agent = factories.AgentFactory(owner=owner, agent_status=status, missed_offers=1)
    _, body = _password_step(agent)
    assert body["user"]["agent_status"] == status
    agent.refresh_from_db()
    assert (agent.agent_status, agent.missed_offers) == (status, 1)
    assert not [name for _, name, _ in broadcasts if name == "AgentStatusChanged"]


def test_a_wrong_password_changes_no_status(away_agent):
    client = AgentClient()
    client.get("/api/csrf-cookie")
    response = client.post("/api/login", {"email": away_agent.email, "password": "wrong-password", "remember": False})
    assert response.status_code == 401
    assert User.objects.get(pk=away_agent.pk).agent_status == AgentStatus.OFFLINE
