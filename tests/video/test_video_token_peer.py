"""Compatibility with a real peer: the video provider's own Node library (npm `agora-token`,
pinned in tests/video_js/package-lock.json) builds the same token bytes as apps/video/tokens.py,
and parses and verifies the tokens our API serves.

These tests need `node`; they skip only when it is missing. When node is there but
tests/video_js/node_modules is not, the session fixture runs `npm ci` itself."""

import fcntl
import json
import shutil
import subprocess

import pytest
from django.conf import settings
from django.utils import timezone

from apps.sessions.video_call import KIOSK_UID_BASE
from apps.video import tokens
from tests import factories
from tests.support.processes import ROOT

VIDEO_JS = ROOT / "tests" / "video_js"
PUBLISHER = {1: 3600, 2: 3600, 3: 3600, 4: 3600}


@pytest.fixture(autouse=True)
def managed_provider(settings):
    """The managed provider's tokens (the suite's default provider is webrtc)."""
    settings.VIDEO_PROVIDER = "agora"


@pytest.fixture(scope="session")
def node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the cross-check against the provider's Node library cannot run")
    if not (VIDEO_JS / "node_modules" / "agora-token" / "package.json").exists():
        npm = shutil.which("npm")
        assert npm is not None, "node is installed but npm is not: cannot install tests/video_js (npm ci)"
        with open(VIDEO_JS / "package.json") as lock:  # one installer at a time (pytest-xdist workers)
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not (VIDEO_JS / "node_modules" / "agora-token" / "package.json").exists():
                result = subprocess.run(
                    [npm, "ci", "--no-audit", "--no-fund", "--prefix", str(VIDEO_JS)],
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
                assert result.returncode == 0, f"npm ci in tests/video_js failed:\n{result.stdout}\n{result.stderr}"
    return node


def run_node(node: str, script: str, spec: dict) -> str:
    result = subprocess.run(
        [node, str(VIDEO_JS / script), json.dumps(spec)], capture_output=True, text=True, timeout=60, cwd=VIDEO_JS
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def node_build(node: str, **spec) -> str:
    spec["privileges"] = {str(key): value for key, value in spec["privileges"].items()}
    return run_node(node, "build_token.js", spec)


def node_inspect(node: str, token: str, certificate: str) -> dict:
    return json.loads(run_node(node, "inspect_token.js", {"token": token, "app_certificate": certificate}))


CASES = {
    "kiosk publisher": {"channel": "ses_AbCdEfGhIjKlMnOpQrSt", "uid": KIOSK_UID_BASE + 17, "privileges": PUBLISHER},
    "agent publisher": {"channel": "ses_-_x9yZ0123456789ab", "uid": 42, "privileges": PUBLISHER},
    "subscriber": {"channel": "ses_AbCdEfGhIjKlMnOpQrSt", "uid": 42, "privileges": {1: 3600}},
    "any uid": {"channel": "ses_AbCdEfGhIjKlMnOpQrSt", "uid": 0, "privileges": PUBLISHER},
    "largest uid": {"channel": "c", "uid": 2**32 - 1, "privileges": {4: 1, 1: 2**32 - 1}},
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_python_and_node_build_the_same_token_bytes(node, case):
    common = {
        "app_id": "0123456789abcdef0123456789ABCDEF",
        "app_certificate": "fedcba9876543210fedcba9876543210",
        "issue_ts": 1_767_225_600,
        "expire": 3600,
        "salt": 12_345_678,
        **case,
    }
    ours = tokens.build_rtc_token(**common)
    theirs = node_build(node, **common)
    assert theirs.startswith("007")
    # The two zlib implementations may deflate identical bytes differently: compare inflated.
    assert tokens.token_content(ours) == tokens.token_content(theirs)


def test_node_builds_the_same_bytes_with_the_configured_credentials(node):
    common = {
        "app_id": settings.VIDEO_APP_ID,
        "app_certificate": settings.VIDEO_APP_CERTIFICATE,
        "channel": "ses_AbCdEfGhIjKlMnOpQrSt",
        "uid": 7,
        "privileges": PUBLISHER,
        "issue_ts": int(timezone.now().timestamp()),
        "expire": 3600,
        "salt": 1,
    }
    assert tokens.token_content(tokens.build_rtc_token(**common)) == tokens.token_content(node_build(node, **common))


def assert_peer_accepts(node: str, body: dict, *, channel: str, uid: int, issued_from: int, issued_to: int) -> None:
    seen = node_inspect(node, body["token"], settings.VIDEO_APP_CERTIFICATE)
    assert seen["parsed"] is True
    assert seen["verified"] is True
    assert seen["app_id"] == settings.VIDEO_APP_ID
    assert seen["expire"] == 3600
    assert issued_from <= seen["issue_ts"] <= issued_to
    assert len(seen["services"]) == 1
    service = seen["services"][0]
    assert service["type"] == 1
    assert service["channel"] == channel
    assert service["uid"] == str(uid)
    assert service["privileges"] == {str(key): value for key, value in PUBLISHER.items()}


def test_peer_verifies_tokens_served_to_kiosk_and_agent(node, kiosk, kiosk_client, agent, agent_client):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())
    before = int(timezone.now().timestamp())
    served = [
        (kiosk_client.get("/api/public/video/token", {"channel": session.public_id, "role": "publisher"}), kiosk),
        (
            kiosk_client.post("/api/public/video/token/refresh", {"channel": session.public_id}, "application/json"),
            kiosk,
        ),
        (agent_client.get("/api/video/token", {"channel": session.public_id, "role": "publisher"}), agent),
        (agent_client.post("/api/video/token/refresh", {"channel": session.public_id}), agent),
    ]
    after = int(timezone.now().timestamp())
    for response, who in served:
        assert response.status_code == 200, response.content
        uid = KIOSK_UID_BASE + kiosk.pk if who is kiosk else agent.pk
        assert response.json()["uid"] == uid
        assert_peer_accepts(
            node, response.json(), channel=session.public_id, uid=uid, issued_from=before, issued_to=after
        )


def test_peer_refuses_a_token_under_another_certificate(node, kiosk, kiosk_client, agent):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())
    token = kiosk_client.get("/api/public/video/token", {"channel": session.public_id}).json()["token"]
    other_certificate = "0" * 32 if settings.VIDEO_APP_CERTIFICATE != "0" * 32 else "1" * 32
    seen = node_inspect(node, token, other_certificate)
    assert seen["parsed"] is True and seen["verified"] is False
    tampered = tokens.build_rtc_token(
        app_id=settings.VIDEO_APP_ID,
        app_certificate=other_certificate,
        channel=session.public_id,
        uid=agent.pk,
        privileges=PUBLISHER,
        issue_ts=int(timezone.now().timestamp()),
        expire=3600,
        salt=5,
    )
    assert node_inspect(node, tampered, settings.VIDEO_APP_CERTIFICATE)["verified"] is False
