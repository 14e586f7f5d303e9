"""Channel authorisation: POST /broadcasting/auth (agents, owner panel users) and
POST /api/public/broadcasting/auth (kiosks). Who may join what; everything else is 403."""

import json
from urllib.parse import urlencode

import pytest
from django.test import Client

from apps.realtime.signing import channel_auth
from tests import factories
from tests.conftest import kiosk_client_for
from tests.support.auth import error_of
from tests.support.realtime import FORM, KIOSK_AUTH, SOCKET, ask


def test_an_agent_gets_its_own_private_channel_signed(agent, agent_client):
    response = ask(agent_client, "/broadcasting/auth", f"private-agent.{agent.pk}")
    assert response.status_code == 200, response.content
    assert response.json() == {"auth": channel_auth(SOCKET, f"private-agent.{agent.pk}")}


def test_json_bodies_are_accepted_too(agent, agent_client):
    body = {"socket_id": SOCKET, "channel_name": f"private-agent.{agent.pk}"}
    assert agent_client.post("/broadcasting/auth", body).status_code == 200


@pytest.mark.parametrize(
    "channel",
    ["private-agent.{other}", "private-kiosk.{kiosk}", "presence-owner.{owner}", "news", "private-agent.{me}x"],
    ids=["another agent", "a kiosk", "owner presence", "public", "suffix"],
)
def test_an_agent_may_join_nothing_else(agent, agent_client, kiosk, owner, channel):
    other = factories.AgentFactory(owner=owner)
    name = channel.format(other=other.pk, kiosk=kiosk.pk, owner=owner.pk, me=agent.pk)
    error_of(ask(agent_client, "/broadcasting/auth", name), 403, "FORBIDDEN")


def test_signed_out_is_401_and_a_missing_xsrf_header_is_419(agent, agent_client):
    error_of(ask(Client(), "/broadcasting/auth", "private-agent.1"), 401, "UNAUTHENTICATED")
    body = urlencode({"socket_id": SOCKET, "channel_name": f"private-agent.{agent.pk}"})
    plain = Client()
    plain.cookies = agent_client.cookies  # the session, without echoing the XSRF token
    error_of(plain.post("/broadcasting/auth", body, content_type=FORM), 419, "CSRF_MISMATCH")


@pytest.mark.parametrize("socket_id", ["1234", "a.b", "1.2.3", "", "1.2; drop"])
def test_socket_ids_must_be_digits_dot_digits(agent, agent_client, socket_id):
    response = ask(agent_client, "/broadcasting/auth", f"private-agent.{agent.pk}", socket_id=socket_id)
    assert error_of(response, 422, "VALIDATION_ERROR")["details"]["socket_id"]


@pytest.fixture
def panel_user(owner):
    return factories.PanelUserFactory(owner=owner)


def test_an_owner_panel_user_joins_its_owners_presence_channel_as_a_member(owner, panel_user):
    client = Client()
    client.force_login(panel_user)
    response = ask(client, "/broadcasting/auth", f"presence-owner.{owner.pk}")
    assert response.status_code == 200, response.content
    body = response.json()
    member = json.loads(body["channel_data"])
    assert member == {
        "user_id": f"user.{panel_user.pk}",
        "user_info": {"id": str(panel_user.pk), "name": panel_user.name, "panel_role": "owner"},
    }
    assert body["auth"] == channel_auth(SOCKET, f"presence-owner.{owner.pk}", body["channel_data"])


def test_a_panel_user_may_not_join_another_owner_or_any_private_channel(panel_user, other_business, kiosk):
    client = Client()
    client.force_login(panel_user)
    for channel in (f"presence-owner.{other_business.owner_id}", f"private-kiosk.{kiosk.pk}", "private-agent.1"):
        error_of(ask(client, "/broadcasting/auth", channel), 403, "FORBIDDEN")


def test_a_panel_session_needs_djangos_csrf_token(owner, panel_user):
    client = Client(enforce_csrf_checks=True)
    client.force_login(panel_user)
    error_of(ask(client, "/broadcasting/auth", f"presence-owner.{owner.pk}"), 403, "FORBIDDEN")


def test_a_user_who_is_neither_agent_nor_panel_user_is_not_signed_in_here(owner):
    client = Client()
    client.force_login(factories.UserFactory(owner=owner))
    error_of(ask(client, "/broadcasting/auth", f"presence-owner.{owner.pk}"), 401, "UNAUTHENTICATED")


def test_a_kiosk_gets_its_private_channel(kiosk, kiosk_client):
    response = ask(kiosk_client, KIOSK_AUTH, f"private-kiosk.{kiosk.pk}")
    assert response.status_code == 200, response.content
    assert response.json() == {"auth": channel_auth(SOCKET, f"private-kiosk.{kiosk.pk}")}


def test_a_kiosk_joins_its_owners_presence_channel_as_id_name_location(kiosk, kiosk_client, owner):
    response = ask(kiosk_client, KIOSK_AUTH, f"presence-owner.{owner.pk}")
    assert response.status_code == 200, response.content
    member = json.loads(response.json()["channel_data"])
    assert member == {
        "user_id": f"kiosk.{kiosk.pk}",
        "user_info": {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location},
        "quiet": True,  # sees no other member and hears nothing there (test_realtime_quiet_members.py)
    }


@pytest.mark.parametrize(
    "channel", ["private-kiosk.{other}", "presence-owner.{other_owner}", "private-agent.1", "news"]
)
def test_a_kiosk_may_join_nothing_else(kiosk, kiosk_client, business, other_business, channel):
    other = factories.KioskFactory(business=business)
    name = channel.format(other=other.pk, other_owner=other_business.owner_id)
    error_of(ask(kiosk_client, KIOSK_AUTH, name), 403, "FORBIDDEN")


def test_a_kiosk_without_valid_device_headers_is_401(kiosk):
    error_of(ask(Client(), KIOSK_AUTH, f"private-kiosk.{kiosk.pk}"), 401, "DEVICE_TOKEN_INVALID")
    kiosk.raw_token = "wrong"
    error_of(ask(kiosk_client_for(kiosk), KIOSK_AUTH, f"private-kiosk.{kiosk.pk}"), 401, "DEVICE_TOKEN_INVALID")


def test_a_kiosk_learns_its_channel_names(kiosk, kiosk_client, owner, settings):
    response = kiosk_client.get("/api/public/broadcasting/channels")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "app_key": settings.REALTIME_APP_KEY,
        "kiosk_channel": f"private-kiosk.{kiosk.pk}",
        "owner_channel": f"presence-owner.{owner.pk}",
    }
    error_of(Client().get("/api/public/broadcasting/channels"), 401, "DEVICE_TOKEN_INVALID")
