"""One client-IP rule (apps.api.inputs.client_ip, TRUSTED_PROXY_COUNT): a forged X-Forwarded-For
cannot give a caller a fresh rate-limit bucket per request. With no trusted proxy the header is
ignored; behind n proxies the n-th entry from the right is the caller."""

import base64
import os
import subprocess
import sys
import uuid

import pytest
from django.conf import settings as django_settings
from django.test import Client, RequestFactory
from rest_framework.settings import api_settings

from apps.accounts.login_throttle import record_failure
from apps.api.inputs import client_ip
from apps.api.throttles import AgentThrottle, KioskThrottle, PairingThrottle, TokenApiThrottle
from apps.owner_api.api.base import OwnerApiThrottle
from apps.owner_api.api.token import TokenRequestThrottle
from config.settings import _SECRET_NAMES as SECRET_NAMES
from tests import factories
from tests.conftest import AgentClient
from tests.helpers_auth import error_of, frozen_clock
from tests.owner_api.conftest import FORM, TOKEN_URL, basic
from tests.processes import ROOT

PEER = "192.0.2.10"


def forged(i: int) -> dict:
    """A different made-up first hop on every request, as an attacker sends it; the right-most
    entry is what a load balancer appends (the attacker's real address)."""
    return {"HTTP_X_FORWARDED_FOR": f"198.51.100.{i % 250}, 203.0.113.5"}


@pytest.fixture(params=[0, 1], ids=["no-proxy", "one-proxy"])
def proxies(request, settings):
    """Run locally (no proxy) and as deployed (one load balancer, which also sets
    X-Forwarded-Proto: the setting that made the old rule trust the client's first hop)."""
    settings.TRUSTED_PROXY_COUNT = request.param
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    return request.param


def request_from(forwarded: str | None = None, peer: str = PEER):
    meta = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


# ----------------------------------------------------------------------------- the rule


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert client_ip(request_from("198.51.100.7")) == PEER
    assert client_ip(request_from("198.51.100.7, 203.0.113.9")) == PEER


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        (1, "198.51.100.7", "198.51.100.7"),
        (1, "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # the client wrote the left entry
        (1, " 6.6.6.6 ,  2001:db8::1 ", "2001:db8::1"),
        (2, "6.6.6.6, 198.51.100.7, 10.0.0.2", "198.51.100.7"),
        (3, "198.51.100.7, 10.0.0.2", "198.51.100.7"),  # fewer hops than proxies: the left-most
        (1, "6.6.6.6, not-an-address", PEER),  # a broken proxy entry: the peer, not a client value
        (1, "", PEER),
    ],
)
def test_behind_n_proxies_the_nth_hop_from_the_right_is_the_caller(settings, count, forwarded, expected):
    settings.TRUSTED_PROXY_COUNT = count
    assert client_ip(request_from(forwarded)) == expected


def test_no_header_behind_a_proxy_is_the_peer(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request_from(None)) == PEER


def test_drf_and_every_throttle_use_the_same_rule(settings):
    assert api_settings.NUM_PROXIES == django_settings.TRUSTED_PROXY_COUNT
    throttles = [
        PairingThrottle,
        KioskThrottle,
        AgentThrottle,
        TokenApiThrottle,
        OwnerApiThrottle,
        TokenRequestThrottle,
    ]
    for count in (0, 1, 2):
        settings.TRUSTED_PROXY_COUNT = count
        request = request_from("6.6.6.6, 198.51.100.7, 10.0.0.2")
        for throttle in throttles:
            assert throttle().get_ident(request) == client_ip(request), (throttle, count)


@pytest.mark.parametrize(("env", "expected"), [({}, "0 0"), ({"APP_ENV": "production"}, "1 1")])
def test_the_default_is_no_proxy_locally_and_one_in_production(tmp_path, env, expected):
    """Read in a fresh interpreter: the count and DRF's NUM_PROXIES come from the environment."""
    secret = base64.urlsafe_b64encode(b"x" * 32).decode()  # fits every secret, a Fernet key too
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "TRUSTED_PROXY_COUNT"}}
    clean.update({name: secret for name in SECRET_NAMES})
    clean.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=str(tmp_path),
        ALLOWED_HOSTS="kiosk.example.test",
        METRICS_TOKEN="scrape-token",
    )
    clean.update({"APP_ENV": "local", **env})
    probe = "from django.conf import settings as s; print(s.TRUSTED_PROXY_COUNT, s.REST_FRAMEWORK['NUM_PROXIES'])"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == expected


# ----------------------------------------------------------------------------- forged headers still get 429


def test_pairing_with_a_forged_header_per_request_is_still_limited(proxies, db, monkeypatch, one_rate_window):
    monkeypatch.setitem(PairingThrottle.THROTTLE_RATES, "pairing", "3/min")
    body = {"code": "000000", "device_name": "Front kiosk"}
    with frozen_clock():
        statuses = [
            Client(**forged(i))
            .post("/api/public/kiosks/pair", {**body, "device_id": str(uuid.uuid4())}, content_type="application/json")
            .status_code
            for i in range(5)
        ]
    assert statuses == [404, 404, 404, 429, 429]


def test_agent_login_with_a_forged_header_per_request_is_still_limited(proxies, agent):
    client = AgentClient()
    client.get("/api/csrf-cookie")
    answers = []
    for i in range(django_settings.LOGIN_FAILURE_LIMIT + 1):
        body = {"email": agent.email, "password": "wrong-password", "remember": False}
        answers.append(client.post("/api/login", body, **forged(i)))
    assert [a.status_code for a in answers[:-1]] == [401] * django_settings.LOGIN_FAILURE_LIMIT
    error_of(answers[-1], 429, "RATE_LIMITED")
    assert int(answers[-1]["Retry-After"]) >= 1


def test_token_login_with_a_forged_header_per_request_is_still_limited(proxies, agent):
    answers = [
        Client(**forged(i)).post(
            "/api/auth/login", {"email": agent.email, "password": "wrong-password"}, content_type="application/json"
        )
        for i in range(django_settings.LOGIN_FAILURE_LIMIT + 1)
    ]
    assert [a.status_code for a in answers[:-1]] == [401] * django_settings.LOGIN_FAILURE_LIMIT
    error_of(answers[-1], 429, "RATE_LIMITED")


def test_owner_api_token_endpoint_with_a_forged_header_per_request_is_still_limited(
    proxies, db, monkeypatch, one_rate_window
):
    monkeypatch.setitem(TokenRequestThrottle.THROTTLE_RATES, "owner_api_token", "3/min")
    body = "grant_type=client_credentials"
    with frozen_clock():
        answers = [
            Client(**forged(i)).post(TOKEN_URL, body, content_type=FORM, headers=basic("no-such-client", "wrong"))
            for i in range(5)
        ]
    assert [a.status_code for a in answers] == [401, 401, 401, 429, 429]
    error_of(answers[3], 429, "RATE_LIMITED")


# ----------------------------------------------------------------------------- behind one proxy


def test_behind_one_proxy_the_right_most_hop_is_limited_and_the_rest_is_ignored(
    settings, db, monkeypatch, one_rate_window
):
    settings.TRUSTED_PROXY_COUNT = 1
    monkeypatch.setitem(PairingThrottle.THROTTLE_RATES, "pairing", "3/min")

    def pair(forwarded: str) -> int:
        body = {"code": "000000", "device_id": str(uuid.uuid4()), "device_name": "Front kiosk"}
        client = Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded)  # the load balancer
        return client.post("/api/public/kiosks/pair", body, content_type="application/json").status_code

    with frozen_clock():
        # The caller 198.51.100.7 prepends something new each time: one bucket all the same.
        same_caller = [pair(f"6.6.6.{i}, 198.51.100.7") for i in range(4)]
        other_caller = pair("6.6.6.1, 198.51.100.8")
    assert same_caller == [404, 404, 404, 429]
    assert other_caller == 404  # another right-most hop is another caller


def test_behind_one_proxy_sign_in_failures_count_on_the_right_most_hop(settings, agent):
    settings.TRUSTED_PROXY_COUNT = 1
    for i in range(django_settings.LOGIN_FAILURE_LIMIT):
        record_failure(agent.email, "198.51.100.7")
    client = Client(REMOTE_ADDR="10.0.0.2")
    body = {"email": agent.email, "password": factories.PASSWORD}
    blocked = client.post(
        "/api/auth/login", body, content_type="application/json", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7"
    )
    error_of(blocked, 429, "RATE_LIMITED")
    elsewhere = client.post(
        "/api/auth/login", body, content_type="application/json", HTTP_X_FORWARDED_FOR="198.51.100.7, 198.51.100.9"
    )
    assert elsewhere.status_code == 200, elsewhere.content
