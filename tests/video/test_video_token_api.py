"""Video token endpoints on the kiosk and agent surfaces: who gets a token, for which session
states, with which uid and lifetime; refresh; every refusal."""

from datetime import datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client
from django.utils import timezone

from apps.sessions.models import Session
from apps.sessions.video_call import KIOSK_UID_BASE
from apps.video import tokens
from apps.video.apps import check_video_credentials
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for

KIOSK_TOKEN = "/api/public/video/token"
KIOSK_REFRESH = "/api/public/video/token/refresh"
AGENT_TOKEN = "/api/video/token"
AGENT_REFRESH = "/api/video/token/refresh"
PUBLISHER = {1: 3600, 2: 3600, 3: 3600, 4: 3600}


@pytest.fixture(autouse=True)
def managed_provider(settings):
    """These tests are the managed provider's (AccessToken2); the suite's default is webrtc."""
    settings.VIDEO_PROVIDER = "agora"


def signed_in(agent) -> AgentClient:
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    return client


def live_session(kiosk, agent, status: str = "active") -> Session:
    return factories.SessionFactory(kiosk=kiosk, agent=agent, status=status, accepted_at=timezone.now())


@pytest.fixture
def session(kiosk, agent):
    return live_session(kiosk, agent)


def kiosk_get(client, channel, role="publisher"):
    return client.get(KIOSK_TOKEN, {"channel": channel, "role": role})


def kiosk_refresh(client, channel):
    return client.post(KIOSK_REFRESH, {"channel": channel}, content_type="application/json")


def agent_get(client, channel, role="publisher"):
    return client.get(AGENT_TOKEN, {"channel": channel, "role": role})


def agent_refresh(client, channel):
    return client.post(AGENT_REFRESH, {"channel": channel})


def error_code(response) -> str:
    return response.json()["error"]["code"]


def assert_token_body(body: dict, *, channel: str, uid: int, issued_at: datetime, privileges=None) -> None:
    assert set(body) == {"app_id", "token", "channel", "uid", "expires_at"}
    assert body["app_id"] == settings.VIDEO_APP_ID
    assert body["channel"] == channel
    assert body["uid"] == uid
    expires_at = issued_at + timedelta(minutes=60)
    assert body["expires_at"] == expires_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    contents = tokens.read_rtc_token(body["token"])
    assert contents.app_id == settings.VIDEO_APP_ID
    assert contents.issue_ts == int(issued_at.timestamp())
    assert contents.expire == 3600
    assert (contents.channel, contents.uid) == (channel, uid)
    assert contents.privileges == (privileges or PUBLISHER)
    assert tokens.verify_signature(body["token"], settings.VIDEO_APP_CERTIFICATE)


@pytest.fixture
def frozen_now():
    """Freeze time at a whole second shortly after now (close enough not to expire a sign-in)."""
    instant = timezone.now().replace(microsecond=0) + timedelta(seconds=2)
    with time_machine.travel(instant, tick=False):
        yield instant


# --- who gets a token ------------------------------------------------------------------------


@pytest.mark.parametrize("status", ["active", "payment"])
def test_kiosk_gets_a_publisher_token_for_its_live_session(kiosk, kiosk_client, agent, status, frozen_now):
    session = live_session(kiosk, agent, status)
    response = kiosk_get(kiosk_client, session.public_id)
    assert response.status_code == 200, response.content
    assert_token_body(response.json(), channel=session.public_id, uid=KIOSK_UID_BASE + kiosk.pk, issued_at=frozen_now)


@pytest.mark.parametrize("status", ["active", "payment"])
def test_accepting_agent_gets_a_publisher_token(kiosk, agent, agent_client, status, frozen_now):
    session = live_session(kiosk, agent, status)
    response = agent_get(agent_client, session.public_id)
    assert response.status_code == 200, response.content
    assert_token_body(response.json(), channel=session.public_id, uid=agent.pk, issued_at=frozen_now)


def test_token_after_a_real_accept(kiosk, kiosk_client, agent, agent_client):
    pending = factories.SessionFactory(kiosk=kiosk)
    assert agent_client.post(f"/api/sessions/{pending.public_id}/accept").status_code == 200
    assert agent_get(agent_client, pending.public_id).status_code == 200
    assert kiosk_get(kiosk_client, pending.public_id).status_code == 200


def test_role_defaults_to_publisher_and_subscriber_only_joins(session, kiosk_client, frozen_now):
    default = kiosk_client.get(KIOSK_TOKEN, {"channel": session.public_id})
    assert default.status_code == 200
    assert tokens.read_rtc_token(default.json()["token"]).privileges == PUBLISHER
    subscriber = kiosk_get(kiosk_client, session.public_id, role="subscriber")
    assert subscriber.status_code == 200
    assert tokens.read_rtc_token(subscriber.json()["token"]).privileges == {1: 3600}


def test_kiosk_and_agent_uids_are_distinct_and_stable(session, kiosk, kiosk_client, agent, agent_client):
    kiosk_uids = {kiosk_get(kiosk_client, session.public_id).json()["uid"] for _ in range(3)}
    kiosk_uids.add(kiosk_refresh(kiosk_client, session.public_id).json()["uid"])
    agent_uids = {agent_get(agent_client, session.public_id).json()["uid"] for _ in range(3)}
    agent_uids.add(agent_refresh(agent_client, session.public_id).json()["uid"])
    assert kiosk_uids == {KIOSK_UID_BASE + kiosk.pk}
    assert agent_uids == {agent.pk}
    # The same participants keep their uids in their next session.
    Session.objects.filter(pk=session.pk).update(status="completed", ended_at=timezone.now())
    second = live_session(kiosk, agent)
    assert kiosk_get(kiosk_client, second.public_id).json()["uid"] == KIOSK_UID_BASE + kiosk.pk
    assert agent_get(agent_client, second.public_id).json()["uid"] == agent.pk


def test_uid_ranges_never_overlap(business):
    kiosks = [factories.KioskFactory(business=business) for _ in range(3)]
    agents = [factories.AgentFactory(owner=business.owner) for _ in range(3)]
    assert max(a.pk for a in agents) < KIOSK_UID_BASE < min(KIOSK_UID_BASE + k.pk for k in kiosks)
    assert KIOSK_UID_BASE + max(k.pk for k in kiosks) < 2**31


# --- refresh ---------------------------------------------------------------------------------


def test_kiosk_refresh_answers_a_fresh_token_for_the_same_channel(session, kiosk, kiosk_client):
    first = kiosk_get(kiosk_client, session.public_id).json()
    later = timezone.now().replace(microsecond=0) + timedelta(minutes=50)
    with time_machine.travel(later, tick=False):
        response = kiosk_refresh(kiosk_client, session.public_id)
    assert response.status_code == 200, response.content
    assert_token_body(response.json(), channel=session.public_id, uid=KIOSK_UID_BASE + kiosk.pk, issued_at=later)
    assert response.json()["token"] != first["token"]
    assert response.json()["expires_at"] > first["expires_at"]


def test_agent_refresh_answers_a_fresh_token_for_the_same_channel(session, agent, agent_client, frozen_now):
    first = agent_get(agent_client, session.public_id).json()
    response = agent_refresh(agent_client, session.public_id)
    assert response.status_code == 200, response.content
    assert_token_body(response.json(), channel=session.public_id, uid=agent.pk, issued_at=frozen_now)
    assert response.json()["token"] != first["token"]  # a new salt even within the same second


def test_agent_refresh_without_xsrf_header_is_419(session, agent_client):
    response = agent_client.post(AGENT_REFRESH, {"channel": session.public_id}, headers={"X-XSRF-TOKEN": ""})
    assert response.status_code == 419
    assert error_code(response) == "CSRF_MISMATCH"


def test_agent_refresh_with_a_wrong_xsrf_header_is_419(session, agent_client):
    response = agent_client.post(AGENT_REFRESH, {"channel": session.public_id}, headers={"X-XSRF-TOKEN": "nope"})
    assert response.status_code == 419


# --- refusals --------------------------------------------------------------------------------


def test_without_credentials_every_surface_answers_401(session):
    anonymous = Client()
    for response, code in [
        (kiosk_get(anonymous, session.public_id), "DEVICE_TOKEN_INVALID"),
        (kiosk_refresh(anonymous, session.public_id), "DEVICE_TOKEN_INVALID"),
        (agent_get(anonymous, session.public_id), "UNAUTHENTICATED"),
        (
            anonymous.post(AGENT_REFRESH, {"channel": session.public_id}, content_type="application/json"),
            "UNAUTHENTICATED",
        ),
    ]:
        assert response.status_code == 401, response.content
        assert error_code(response) == code


def test_wrong_device_token_is_401(session, kiosk):
    client = Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "not-the-token"})
    for response in (kiosk_get(client, session.public_id), kiosk_refresh(client, session.public_id)):
        assert response.status_code == 401
        assert error_code(response) == "DEVICE_TOKEN_INVALID"


def test_another_kiosk_gets_404(session, business):
    other = kiosk_client_for(factories.KioskFactory(business=business))
    for response in (kiosk_get(other, session.public_id), kiosk_refresh(other, session.public_id)):
        assert response.status_code == 404
        body = response.json()["error"]
        assert body["code"] == "SESSION_NOT_FOUND" and body["request_id"]


@pytest.mark.parametrize("who", ["same_owner_agent", "other_owner_agent", "platform_agent"])
def test_agents_who_did_not_accept_get_404(session, owner, other_business, who):
    other = {
        "same_owner_agent": lambda: factories.AgentFactory(owner=owner),
        "other_owner_agent": lambda: factories.AgentFactory(owner=other_business.owner),
        "platform_agent": lambda: factories.AgentFactory(owner=None),
    }[who]()
    client = signed_in(other)
    for response in (agent_get(client, session.public_id), agent_refresh(client, session.public_id)):
        assert response.status_code == 404, response.content
        assert error_code(response) == "SESSION_NOT_FOUND"


def test_unknown_channel_is_404(kiosk_client, agent_client):
    assert error_code(kiosk_get(kiosk_client, "ses_doesnotexist")) == "SESSION_NOT_FOUND"
    assert error_code(agent_get(agent_client, "ses_doesnotexist")) == "SESSION_NOT_FOUND"
    assert agent_refresh(agent_client, "ses_doesnotexist").status_code == 404


def test_pending_session_is_409_invalid_state(kiosk, kiosk_client, agent_client):
    pending = factories.SessionFactory(kiosk=kiosk)
    for response in (
        kiosk_get(kiosk_client, pending.public_id),
        kiosk_refresh(kiosk_client, pending.public_id),
        agent_get(agent_client, pending.public_id),
        agent_refresh(agent_client, pending.public_id),
    ):
        assert response.status_code == 409, response.content
        assert error_code(response) == "INVALID_STATE"


@pytest.mark.parametrize("status", ["completed", "abandoned", "failed"])
def test_ended_session_is_409_already_ended(session, kiosk_client, agent_client, status):
    Session.objects.filter(pk=session.pk).update(status=status, ended_at=timezone.now())
    for response in (
        kiosk_get(kiosk_client, session.public_id),
        kiosk_refresh(kiosk_client, session.public_id),
        agent_get(agent_client, session.public_id),
        agent_refresh(agent_client, session.public_id),
    ):
        assert response.status_code == 409, response.content
        assert error_code(response) == "SESSION_ALREADY_ENDED"


def test_session_ended_by_the_api_refuses_further_tokens(session, agent_client, kiosk_client):
    assert agent_client.post(f"/api/sessions/{session.public_id}/end", {"reason": "completed"}).status_code == 200
    assert error_code(agent_refresh(agent_client, session.public_id)) == "SESSION_ALREADY_ENDED"
    assert error_code(kiosk_refresh(kiosk_client, session.public_id)) == "SESSION_ALREADY_ENDED"


def test_bad_role_is_422(session, kiosk_client, agent_client):
    for response in (
        kiosk_get(kiosk_client, session.public_id, role="admin"),
        agent_get(agent_client, session.public_id, role="host"),
        kiosk_client.post(KIOSK_REFRESH, {"channel": session.public_id, "role": "x"}, content_type="application/json"),
        agent_client.post(AGENT_REFRESH, {"channel": session.public_id, "role": "x"}),
    ):
        assert response.status_code == 422, response.content
        error = response.json()["error"]
        assert error["code"] == "VALIDATION_ERROR" and "role" in error["details"]


def test_missing_channel_is_422(kiosk_client, agent_client):
    for response in (
        kiosk_client.get(KIOSK_TOKEN, {"role": "publisher"}),
        agent_client.get(AGENT_TOKEN),
        kiosk_client.get(KIOSK_TOKEN, {"channel": "", "role": "publisher"}),
        kiosk_client.post(KIOSK_REFRESH, {}, content_type="application/json"),
        agent_client.post(AGENT_REFRESH, {}),
        agent_client.post(AGENT_REFRESH, {"channel": "x" * 65}),
    ):
        assert response.status_code == 422, response.content
        error = response.json()["error"]
        assert error["code"] == "VALIDATION_ERROR" and "channel" in error["details"]


def test_wrong_methods_are_405(session, kiosk_client, agent_client):
    assert kiosk_client.post(KIOSK_TOKEN, {}, content_type="application/json").status_code == 405
    assert kiosk_client.get(KIOSK_REFRESH).status_code == 405
    assert agent_client.get(AGENT_REFRESH).status_code == 405


def test_start_up_check_refuses_malformed_provider_credentials(settings):
    assert check_video_credentials() == []
    settings.VIDEO_APP_ID = "my-app"
    settings.VIDEO_APP_CERTIFICATE = "0123456789abcdef0123456789abcdeg"
    assert [error.id for error in check_video_credentials()] == ["video.E001", "video.E001"]


def test_the_lifetime_follows_video_token_ttl_seconds(session, agent, agent_client, frozen_now, settings):
    """A deployment (or a browser test watching a client refresh) may shorten the 60 minutes."""
    settings.VIDEO_TOKEN_TTL_SECONDS = 45
    body = agent_refresh(agent_client, session.public_id).json()
    assert body["expires_at"] == (frozen_now + timedelta(seconds=45)).strftime("%Y-%m-%dT%H:%M:%SZ")
    contents = tokens.read_rtc_token(body["token"])
    assert contents.expire == 45
    assert set(contents.privileges.values()) == {45}
