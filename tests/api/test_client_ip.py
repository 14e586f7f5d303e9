"""One client-IP rule (apps.api.inputs.client_ip, TRUSTED_PROXIES): a forged X-Forwarded-For cannot
give a caller a fresh rate-limit bucket per request. Only a peer among the trusted proxies may name
the caller; from it, the right-most entry that is not itself a trusted proxy is the caller. A client
reaching a web process directly is its own address, whatever it sends."""

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
from tests.owner_api.conftest import FORM, TOKEN_URL, basic
from tests.support.auth import error_of, frozen_clock
from tests.support.processes import ROOT

PEER = "192.0.2.10"
PROXY = "10.0.0.2"  # the load balancer


def forged(i: int) -> dict:
    """A different made-up first hop on every request, as an attacker sends it; the right-most
    entry is what a load balancer appends (the attacker's real address)."""
    return {"HTTP_X_FORWARDED_FOR": f"198.51.100.{i % 250}, 203.0.113.5"}


@pytest.fixture(params=[[], ["127.0.0.1"]], ids=["no-proxy", "one-proxy"])
def proxies(request, settings):
    """Run locally (no proxy) and as deployed (the test client's peer, 127.0.0.1, is the load
    balancer, which also sets X-Forwarded-Proto: the setting that made an old rule trust the
    client's first hop)."""
    settings.TRUSTED_PROXIES = request.param
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    return request.param


def request_from(forwarded: str | None = None, peer: str = PROXY):
    meta = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


# ----------------------------------------------------------------------------- the rule


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXIES = []
    assert client_ip(request_from("198.51.100.7")) == PROXY
    assert client_ip(request_from("198.51.100.7, 203.0.113.9")) == PROXY


@pytest.mark.parametrize(
    ("trusted", "forwarded", "expected"),
    [
        ([PROXY], "198.51.100.7", "198.51.100.7"),
        ([PROXY], "6.6.6.6, 198.51.100.7", "198.51.100.7"),  # the client wrote the left entry
        ([PROXY], " 6.6.6.6 ,  2001:db8::1 ", "2001:db8::1"),
        (["10.0.0.0/8"], "6.6.6.6, 198.51.100.7, 10.0.0.3", "198.51.100.7"),  # two proxies of ours
        (["10.0.0.0/8"], "10.0.0.9, 10.0.0.3", "10.0.0.9"),  # every hop ours: the left-most
        ([PROXY], "6.6.6.6, not-an-address", PROXY),  # a broken proxy entry: the peer, not a client value
        ([PROXY], "::ffff:198.51.100.7", "198.51.100.7"),
        ([PROXY], "", PROXY),
    ],
)
def test_from_a_trusted_proxy_the_right_most_untrusted_hop_is_the_caller(settings, trusted, forwarded, expected):
    settings.TRUSTED_PROXIES = trusted
    assert client_ip(request_from(forwarded)) == expected


def test_a_client_reaching_the_service_directly_cannot_choose_its_address(settings):
    """The audit: with a proxy count of 1, a client talking to a web process directly chose its
    address with the header. Only the trusted proxies' word counts now."""
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_ip(request_from("6.6.6.6", peer="198.51.100.66")) == "198.51.100.66"
    assert client_ip(request_from("6.6.6.6, 10.0.0.2", peer="198.51.100.66")) == "198.51.100.66"


def test_a_mapped_ipv4_peer_is_recognised_as_the_proxy(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_ip(request_from("198.51.100.7", peer="::ffff:10.0.0.2")) == "198.51.100.7"


def test_no_header_from_a_proxy_is_the_peer(settings):
    settings.TRUSTED_PROXIES = [PROXY]
    assert client_ip(request_from(None)) == PROXY


def test_every_throttle_uses_the_same_rule(settings):
    assert api_settings.NUM_PROXIES == 0  # DRF's own get_ident never trusts the header
    throttles = [
        PairingThrottle,
        KioskThrottle,
        AgentThrottle,
        TokenApiThrottle,
        OwnerApiThrottle,
        TokenRequestThrottle,
    ]
    for trusted in ([], [PROXY], ["10.0.0.0/8"]):
        settings.TRUSTED_PROXIES = trusted
        for peer in (PROXY, "198.51.100.66"):
            request = request_from("6.6.6.6, 198.51.100.7, 10.0.0.3", peer=peer)
            for throttle in throttles:
                assert throttle().get_ident(request) == client_ip(request), (throttle, trusted, peer)


def run_settings(tmp_path, env: dict, probe: str) -> subprocess.CompletedProcess:
    """Read settings in a fresh interpreter, from the environment."""
    secret = base64.urlsafe_b64encode(b"x" * 32).decode()  # fits every secret, a Fernet key too
    drop = {"DATABASE_URL", "REDIS_URL", "TRUSTED_PROXY_COUNT", "TRUSTED_PROXIES"}
    clean = {k: v for k, v in os.environ.items() if k not in drop}
    clean.update({name: secret for name in SECRET_NAMES})
    clean.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=str(tmp_path),
        ALLOWED_HOSTS="kiosk.example.test",
        METRICS_TOKEN="scrape-token",
    )
    clean.update({"APP_ENV": "local", **env})
    return subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "[]"),
        ({"APP_ENV": "production"}, "[]"),
        ({"APP_ENV": "production", "TRUSTED_PROXIES": "10.0.0.5, 10.1.0.0/16"}, "['10.0.0.5', '10.1.0.0/16']"),
    ],
)
def test_no_proxy_is_trusted_unless_named(tmp_path, env, expected):
    done = run_settings(tmp_path, env, "from django.conf import settings as s; print(s.TRUSTED_PROXIES)")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == expected


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"TRUSTED_PROXY_COUNT": "1"}, "TRUSTED_PROXY_COUNT is gone"),
        ({"TRUSTED_PROXIES": "10.0.0.5,load-balancer"}, "'load-balancer' is not an IP address or network"),
    ],
)
def test_a_proxy_setting_that_cannot_be_checked_refuses_to_start(tmp_path, env, says):
    done = run_settings(tmp_path, env, "from django.conf import settings as s; s.TRUSTED_PROXIES")
    assert done.returncode != 0 and says in done.stderr


def test_a_header_from_an_untrusted_peer_is_reported_once_in_production(settings, caplog, monkeypatch):
    from apps.core import client_address

    monkeypatch.setattr(client_address, "_warned", False)
    settings.PRODUCTION, settings.TRUSTED_PROXIES = True, []
    for _ in range(3):
        client_ip(request_from("198.51.100.7"))
    warnings = [r for r in caplog.records if "not in TRUSTED_PROXIES" in r.getMessage()]
    assert len(warnings) == 1 and PROXY in warnings[0].getMessage()


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


def test_a_direct_client_forging_the_header_is_limited_on_its_own_address(settings, db, monkeypatch, one_rate_window):
    """Deployed behind a load balancer, a client that reaches a web process directly and makes up
    X-Forwarded-For on every request shares one bucket all the same."""
    settings.TRUSTED_PROXIES = [PROXY]
    monkeypatch.setitem(PairingThrottle.THROTTLE_RATES, "pairing", "3/min")
    body = {"code": "000000", "device_name": "Front kiosk"}
    with frozen_clock():
        statuses = [
            Client(REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR=f"203.0.113.{i}")
            .post("/api/public/kiosks/pair", {**body, "device_id": str(uuid.uuid4())}, content_type="application/json")
            .status_code
            for i in range(5)
        ]
    assert statuses == [404, 404, 404, 429, 429]


# ----------------------------------------------------------------------------- behind one proxy


def test_behind_one_proxy_the_right_most_hop_is_limited_and_the_rest_is_ignored(
    settings, db, monkeypatch, one_rate_window
):
    settings.TRUSTED_PROXIES = [PROXY]
    monkeypatch.setitem(PairingThrottle.THROTTLE_RATES, "pairing", "3/min")

    def pair(forwarded: str) -> int:
        body = {"code": "000000", "device_id": str(uuid.uuid4()), "device_name": "Front kiosk"}
        client = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=forwarded)  # the load balancer
        return client.post("/api/public/kiosks/pair", body, content_type="application/json").status_code

    with frozen_clock():
        # The caller 198.51.100.7 prepends something new each time: one bucket all the same.
        same_caller = [pair(f"6.6.6.{i}, 198.51.100.7") for i in range(4)]
        other_caller = pair("6.6.6.1, 198.51.100.8")
    assert same_caller == [404, 404, 404, 429]
    assert other_caller == 404  # another right-most hop is another caller


def test_behind_one_proxy_sign_in_failures_count_on_the_right_most_hop(settings, agent):
    settings.TRUSTED_PROXIES = [PROXY]
    for i in range(django_settings.LOGIN_FAILURE_LIMIT):
        record_failure(agent.email, "198.51.100.7")
    client = Client(REMOTE_ADDR=PROXY)
    body = {"email": agent.email, "password": factories.PASSWORD}
    blocked = client.post(
        "/api/auth/login", body, content_type="application/json", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7"
    )
    error_of(blocked, 429, "RATE_LIMITED")
    elsewhere = client.post(
        "/api/auth/login", body, content_type="application/json", HTTP_X_FORWARDED_FOR="198.51.100.7, 198.51.100.9"
    )
    assert elsewhere.status_code == 200, elsewhere.content
