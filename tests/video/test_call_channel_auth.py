"""The call's private channel (private-call.{session id}: WebRTC signalling and chat) is signed
for the session's kiosk and its current agent while the session is live, and refused (403) to
everyone else: another kiosk, another agent of the same owner, a panel user, after the end."""

import pytest
from django.test import Client
from django.utils import timezone

from apps.realtime.signing import channel_auth
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for
from tests.support.auth import error_of
from tests.support.realtime import KIOSK_AUTH, SOCKET, ask

AGENT_AUTH = "/broadcasting/auth"


def signed_in(agent) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    return client


@pytest.fixture
def session(kiosk, agent):
    return factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())


@pytest.mark.parametrize("status", ["active", "payment"])
def test_the_sessions_kiosk_and_agent_are_signed(kiosk, agent, kiosk_client, agent_client, status):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status=status, accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    for client, path in ((kiosk_client, KIOSK_AUTH), (agent_client, AGENT_AUTH)):
        response = ask(client, path, channel)
        assert response.status_code == 200, response.content
        signer = f"kiosk.{kiosk.pk}" if path == KIOSK_AUTH else f"user.{agent.pk}"
        signed = f'{{"user_id":"{signer}"}}'  # who asked: the server checks it is a member at subscription
        assert response.json() == {"auth": channel_auth(SOCKET, channel, signed), "channel_data": signed}


def test_another_kiosk_and_another_agent_are_refused(session, business, owner):
    channel = f"private-call.{session.public_id}"
    other_kiosk = factories.KioskFactory(business=business)
    error_of(ask(kiosk_client_for(other_kiosk), KIOSK_AUTH, channel), 403, "FORBIDDEN")
    colleague = factories.AgentFactory(owner=owner)
    error_of(ask(signed_in(colleague), AGENT_AUTH, channel), 403, "FORBIDDEN")


def test_a_panel_user_and_another_owners_agent_are_refused(session, owner, other_business):
    channel = f"private-call.{session.public_id}"
    panel = Client()
    panel.force_login(factories.PanelUserFactory(owner=owner))
    error_of(ask(panel, AGENT_AUTH, channel), 403, "FORBIDDEN")
    stranger = factories.AgentFactory(owner=other_business.owner)
    error_of(ask(signed_in(stranger), AGENT_AUTH, channel), 403, "FORBIDDEN")


def test_only_the_current_agent_after_the_session_moves_to_another(session, owner, agent_client, kiosk_client):
    channel = f"private-call.{session.public_id}"
    newcomer = factories.AgentFactory(owner=owner)
    session.agent = newcomer
    session.save(update_fields=["agent"])
    error_of(ask(agent_client, AGENT_AUTH, channel), 403, "FORBIDDEN")
    assert ask(signed_in(newcomer), AGENT_AUTH, channel).status_code == 200


@pytest.mark.parametrize("status", ["pending", "completed", "abandoned"])
def test_nobody_joins_a_call_that_is_not_live(kiosk, agent, kiosk_client, agent_client, status):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status=status)
    channel = f"private-call.{session.public_id}"
    error_of(ask(kiosk_client, KIOSK_AUTH, channel), 403, "FORBIDDEN")
    error_of(ask(agent_client, AGENT_AUTH, channel), 403, "FORBIDDEN")


def test_an_unknown_session_is_refused(kiosk_client, agent_client):
    error_of(ask(kiosk_client, KIOSK_AUTH, "private-call.ses_nope"), 403, "FORBIDDEN")
    error_of(ask(agent_client, AGENT_AUTH, "private-call.ses_nope"), 403, "FORBIDDEN")
