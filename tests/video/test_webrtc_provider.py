"""The self-hosted provider (VIDEO_PROVIDER = "webrtc", the suite's default): the token endpoints
keep the spec's shape and add `ice_servers` and `signalling_channel`; TURN credentials follow
coturn's `use-auth-secret` scheme; the provider setting is checked at start-up."""

from datetime import timedelta

import pytest
import time_machine
from django.core import signing
from django.utils import timezone

from apps.sessions.video_call import KIOSK_UID_BASE
from apps.video import webrtc
from apps.video.apps import check_video_provider
from tests import factories

KIOSK_TOKEN = "/api/public/video/token"
AGENT_TOKEN = "/api/video/token"
AGENT_REFRESH = "/api/video/token/refresh"


def test_turn_credentials_match_a_fixed_vector():
    # Computed independently with OpenSSL:
    #   printf '%s' "1764115200:1000000012" | openssl dgst -sha1 -hmac coturn-shared-secret -binary | base64
    username, credential = webrtc.turn_credentials(
        secret="coturn-shared-secret", uid=1_000_000_012, expires_at=1764115200
    )
    assert username == "1764115200:1000000012"
    assert credential == "Ld2CVXoO098W7rRxljKPEdbU6vg="


@pytest.fixture
def session(kiosk, agent):
    return factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())


@pytest.fixture
def frozen_now():
    instant = timezone.now().replace(microsecond=0) + timedelta(seconds=2)
    with time_machine.travel(instant, tick=False):
        yield instant


def test_the_default_is_webrtc_without_ice_servers_on_a_lan(settings, session, kiosk, kiosk_client, frozen_now):
    assert settings.VIDEO_PROVIDER == "webrtc"
    response = kiosk_client.get(KIOSK_TOKEN, {"channel": session.public_id, "role": "publisher"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {
        "app_id",
        "token",
        "channel",
        "uid",
        "expires_at",
        "ice_servers",
        "signalling_channel",
        "ice_restart_seconds",
    }
    expires_at = frozen_now + timedelta(seconds=settings.VIDEO_TOKEN_TTL_SECONDS)
    assert body["app_id"] == "webrtc"
    assert body["channel"] == session.public_id
    assert body["uid"] == KIOSK_UID_BASE + kiosk.pk
    assert body["expires_at"] == expires_at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert body["ice_servers"] == []
    assert body["signalling_channel"] == f"private-call.{session.public_id}"
    assert body["ice_restart_seconds"] == settings.VIDEO_ICE_RESTART_SECONDS == 3
    grant = webrtc.read_grant(body["token"])
    assert grant == {"channel": session.public_id, "uid": KIOSK_UID_BASE + kiosk.pk, "exp": int(expires_at.timestamp())}
    with pytest.raises(signing.BadSignature):
        webrtc.read_grant(body["token"][:-2] + "xx")


def test_stun_and_turn_urls_come_from_settings_with_short_lived_turn_credentials(
    settings, session, agent, agent_client, frozen_now
):
    settings.VIDEO_STUN_URLS = ["stun:turn.example.com:3478"]
    settings.VIDEO_TURN_URLS = ["turn:turn.example.com:3478?transport=udp", "turns:turn.example.com:5349"]
    settings.VIDEO_TURN_SECRET = "coturn-shared-secret"
    settings.VIDEO_TOKEN_TTL_SECONDS = 600
    response = agent_client.get(AGENT_TOKEN, {"channel": session.public_id, "role": "publisher"})
    assert response.status_code == 200, response.content
    expiry = int((frozen_now + timedelta(seconds=600)).timestamp())
    username, credential = webrtc.turn_credentials(secret="coturn-shared-secret", uid=agent.pk, expires_at=expiry)
    assert response.json()["ice_servers"] == [
        {"urls": ["stun:turn.example.com:3478"]},
        {
            "urls": ["turn:turn.example.com:3478?transport=udp", "turns:turn.example.com:5349"],
            "username": f"{expiry}:{agent.pk}",
            "credential": credential,
        },
    ]
    assert username == f"{expiry}:{agent.pk}"


def test_a_refresh_gives_fresh_credentials_for_the_same_channel(settings, session, agent, agent_client, frozen_now):
    settings.VIDEO_TURN_URLS = ["turn:turn.example.com:3478"]
    settings.VIDEO_TURN_SECRET = "s3cret"
    first = agent_client.get(AGENT_TOKEN, {"channel": session.public_id}).json()
    with time_machine.travel(frozen_now + timedelta(seconds=30), tick=False):
        response = agent_client.post(AGENT_REFRESH, {"channel": session.public_id})
    assert response.status_code == 200, response.content
    fresh = response.json()
    assert fresh["channel"] == session.public_id and fresh["uid"] == agent.pk
    assert fresh["expires_at"] > first["expires_at"]
    assert fresh["ice_servers"][0]["username"] != first["ice_servers"][0]["username"]


def test_the_same_refusals_as_the_managed_provider(kiosk, agent, agent_client, kiosk_client, other_business):
    pending = factories.SessionFactory(kiosk=kiosk)
    assert agent_client.get(AGENT_TOKEN, {"channel": pending.public_id}).json()["error"]["code"] == "INVALID_STATE"
    foreign = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business), status="active")
    response = kiosk_client.get(KIOSK_TOKEN, {"channel": foreign.public_id})
    assert (response.status_code, response.json()["error"]["code"]) == (404, "SESSION_NOT_FOUND")
    ended = factories.SessionFactory(kiosk=kiosk, agent=agent, status="completed", ended_at=timezone.now())
    response = kiosk_client.get(KIOSK_TOKEN, {"channel": ended.public_id})
    assert (response.status_code, response.json()["error"]["code"]) == (409, "SESSION_ALREADY_ENDED")


def test_an_unknown_provider_or_turn_without_its_secret_fails_the_start_up_checks(settings):
    assert check_video_provider() == []
    settings.VIDEO_PROVIDER = "jitsi"
    settings.VIDEO_TURN_URLS = ["turn:turn.example.com"]
    settings.VIDEO_TURN_SECRET = ""
    assert [error.id for error in check_video_provider()] == ["video.E002", "video.E003"]
