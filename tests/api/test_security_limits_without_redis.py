"""While Redis refuses connections the REST surfaces keep answering (the cache fails open), but
the brute-force guards do not turn into "no limit": sign-in per email + IP and per IP, the token
API's 2FA codes, pairing and the owner API's token endpoint count in the web process's own memory
(apps.core.cache.security_counters) until Redis is back."""

import itertools
import time
import uuid

import pytest
import requests
from django.conf import settings
from django.test import Client, override_settings

from apps.accounts.models import SealedTotpDevice
from apps.api.throttles import KioskThrottle
from apps.core.cache import security_counters
from tests import factories
from tests.conftest import AgentClient, kiosk_client_for
from tests.owner_api.conftest import FORM, TOKEN_URL, basic
from tests.support.auth import enrol_totp, error_of, frozen_clock, wrong_code
from tests.support.processes import free_port, web_server


def dead_redis_cache() -> dict:
    """The production cache backend pointed at a port where nothing listens."""
    return {
        "default": {
            "BACKEND": "apps.core.cache.FailOpenRedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
            "KEY_PREFIX": "dead",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }


@pytest.fixture
def redis_down():
    """Inside the test body (so the suite's own cache clearing runs against the real cache)."""
    security_counters.fallback.clear()
    with override_settings(CACHES=dead_redis_cache()):
        yield
    security_counters.fallback.clear()


def pair(code: str):
    body = {"code": code, "device_id": str(uuid.uuid4()), "device_name": "Front kiosk"}
    return Client().post("/api/public/kiosks/pair", body, content_type="application/json")


def test_eight_wrong_agent_logins_for_one_email_are_limited(redis_down, agent):
    client = AgentClient()
    client.get("/api/csrf-cookie")
    body = {"email": agent.email, "password": "wrong-password", "remember": False}
    statuses = [client.post("/api/login", body).status_code for _ in range(8)]
    assert statuses == [401] * settings.LOGIN_FAILURE_LIMIT + [429] * (8 - settings.LOGIN_FAILURE_LIMIT)
    error_of(client.post("/api/login", {**body, "password": factories.PASSWORD}), 429, "RATE_LIMITED")


def test_eight_wrong_token_logins_for_one_email_are_limited(redis_down, agent):
    def attempt(password="wrong-password"):
        body = {"email": agent.email, "password": password}
        return Client().post("/api/auth/login", body, content_type="application/json")

    statuses = [attempt().status_code for _ in range(8)]
    assert statuses == [401] * settings.LOGIN_FAILURE_LIMIT + [429] * (8 - settings.LOGIN_FAILURE_LIMIT)
    blocked = attempt(factories.PASSWORD)
    error_of(blocked, 429, "RATE_LIMITED")
    assert int(blocked["Retry-After"]) >= 1


def test_wrong_totp_codes_on_the_token_api_are_limited(redis_down, agent):
    device = enrol_totp(agent)
    answers = []
    for _ in range(8):
        # Lift django-otp's own back-off, so only the failure counter can refuse.
        SealedTotpDevice.objects.filter(pk=device.pk).update(
            throttling_failure_count=0, throttling_failure_timestamp=None
        )
        body = {"email": agent.email, "password": factories.PASSWORD, "code": wrong_code(device)}
        answers.append(Client().post("/api/auth/login", body, content_type="application/json").status_code)
    assert answers == [422] * settings.LOGIN_FAILURE_LIMIT + [429] * (8 - settings.LOGIN_FAILURE_LIMIT)


def test_one_address_spraying_emails_is_limited(redis_down, db):
    statuses = [
        Client().post("/panel/login", {"email": f"victim{n}@example.test", "password": "nope"}).status_code
        for n in range(settings.LOGIN_IP_FAILURE_LIMIT + 1)
    ]
    assert statuses == [200] * settings.LOGIN_IP_FAILURE_LIMIT + [429]


def test_fifteen_wrong_pairing_codes_are_limited(redis_down, db):
    # One frozen instant for all sixteen: a second freeze would read the clock again, and a run
    # slow enough to cross into the next minute's window would be let through (seen once in CI).
    with frozen_clock():
        statuses = [pair(f"{n:06d}").status_code for n in range(15)]
        assert statuses == [404] * 10 + [429] * 5  # THROTTLE_PAIRING: 10 a minute
        error_of(pair("000099"), 429, "RATE_LIMITED")


def test_the_owner_api_token_endpoint_is_limited(redis_down, db):
    with frozen_clock():
        statuses = [
            Client()
            .post(TOKEN_URL, "grant_type=client_credentials", content_type=FORM, headers=basic("nobody", "wrong"))
            .status_code
            for _ in range(31)
        ]
    assert statuses == [401] * 30 + [429]  # THROTTLE_OWNER_API_TOKEN: 30 a minute


def test_usage_limits_still_fail_open_so_kiosks_keep_working(redis_down, kiosk, monkeypatch):
    """Only the brute-force guards fall back; a paired kiosk's request quota does not refuse
    kiosks (each web process would count its own share of their traffic)."""
    monkeypatch.setitem(KioskThrottle.THROTTLE_RATES, KioskThrottle.scope, "2/min")
    client = kiosk_client_for(kiosk)
    with frozen_clock():
        assert [client.post("/api/public/kiosks/heartbeat").status_code for _ in range(4)] == [200] * 4


def test_nothing_is_counted_in_process_memory_while_the_shared_cache_answers(db):
    """The fallback is used only while Redis is unreachable: otherwise every web process shares
    the counts."""
    security_counters.fallback.clear()
    for n in range(3):
        pair(f"{n:06d}")
    Client().post("/api/auth/login", {"email": "x@example.test", "password": "nope"}, content_type="application/json")
    assert not security_counters.fallback._cache


# ----------------------------------------------------------------------------- a real server


PAIRING_WINDOW = 60  # THROTTLE_PAIRING's fixed window ("10/min"): a new one starts each clock minute


def pairing_window_of(instant: float) -> int:
    return int(instant // PAIRING_WINDOW)  # as the server numbers it (AtomicWindowThrottle.start_window)


def counted_per_window(answers: list[tuple[int, int, int]]) -> bool:
    """Whether the answers are what the pairing limit gives: in each window, the first ten 404 and
    every later one 429. An answer is (the window at its request's start, at its answer, status);
    the server read the clock in between, so one that spans two windows may count in either."""
    spanning = [index for index, (start, end, _) in enumerate(answers) if start != end]
    for choice in itertools.product((0, 1), repeat=len(spanning)):
        windows = [start for start, _, _ in answers]
        for index, later in zip(spanning, choice, strict=True):
            windows[index] += later
        statuses: dict[int, list[int]] = {}
        for window, (_, _, status) in zip(windows, answers, strict=True):
            statuses.setdefault(window, []).append(status)
        if all(got == [404] * min(len(got), 10) + [429] * max(0, len(got) - 10) for got in statuses.values()):
            return True
    return False


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_a_server_whose_redis_refuses_connections_still_limits_guessing():
    """As the audit reproduced it: daphne with REDIS_URL on a port where nothing listens. Pairing
    counts in fixed clock minutes, so the test reads the clock around each attempt instead of
    waiting for a fresh minute: it guesses until fifteen attempts fell in one window, and checks
    every window's answers."""
    with web_server(REDIS_URL=f"redis://127.0.0.1:{free_port()}/0", TASK_MODE="sync") as base:
        http = requests.Session()
        http.get(f"{base}/api/csrf-cookie", timeout=15)
        http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]
        body = {"email": "someone@example.test", "password": "wrong-password"}
        logins = [http.post(f"{base}/api/login", json=body, timeout=15).status_code for _ in range(8)]
        assert logins == [401] * 5 + [429] * 3
        answers: list[tuple[int, int, int]] = []
        while len(answers) < 45:  # fifteen in one window, even after crossing two minutes
            started = pairing_window_of(time.time())
            status = http.post(
                f"{base}/api/public/kiosks/pair",
                json={"code": f"{len(answers):06d}", "device_id": str(uuid.uuid4()), "device_name": "k"},
                timeout=15,
            ).status_code
            answers.append((started, pairing_window_of(time.time()), status))
            if sum(start == end == answers[-1][1] for start, end, _ in answers) == 15:
                break
        assert sum(start == end == answers[-1][1] for start, end, _ in answers) == 15, answers
        assert counted_per_window(answers), answers
