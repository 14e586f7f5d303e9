"""Helpers for the foundation tests: a controllable clock, TOTP codes, cookie and envelope checks.

The clock moves Python's time with time_machine. Redis keeps its own clock for key TTLs, which
time_machine cannot move, so on the production stack `Clock.advance` also ages every test key in
Redis by the same amount (deleting those whose TTL has run out). The local-memory cache of the
embedded mode reads `time.time()` and needs nothing extra.
"""

from contextlib import contextmanager
from datetime import datetime, timedelta

import requests
import time_machine
from django.conf import settings
from django.core.cache import cache
from django_otp.oath import totp

from apps.accounts.models import SealedTotpDevice
from tests import factories


class Clock:
    def __init__(self, traveller):
        self._traveller = traveller

    def now(self) -> datetime:
        from django.utils import timezone

        return timezone.now()

    def advance(self, **delta) -> None:
        step = timedelta(**delta)
        self._traveller.shift(step)
        _age_redis_keys(step)


def _age_redis_keys(step: timedelta) -> None:
    if not settings.REDIS_URL:
        return
    elapsed_ms = int(step.total_seconds() * 1000)
    client = cache.client  # the process's redis-py client (apps.core.cache.FailOpenRedisCache)
    for key in client.scan_iter(f"{settings.CACHE_KEY_PREFIX}:*"):
        ttl_ms = client.pttl(key)
        if ttl_ms < 0:  # no TTL (-1) or already gone (-2)
            continue
        if ttl_ms <= elapsed_ms:
            client.delete(key)
        else:
            client.pexpire(key, ttl_ms - elapsed_ms)


@contextmanager
def frozen_clock():
    """Time frozen at "now"; `clock.advance(days=29)` moves it (and Redis TTLs) forward."""
    with time_machine.travel(datetime.now().astimezone(), tick=False) as traveller:
        yield Clock(traveller)


def enrol_totp(user) -> SealedTotpDevice:
    return factories.TOTPDeviceFactory(user=user)


def current_code(device: SealedTotpDevice) -> str:
    device.refresh_from_db()
    return f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift):0{device.digits}d}"


def wrong_code(device: SealedTotpDevice) -> str:
    """A well-formed code that no time step within the device's tolerance accepts."""
    device.refresh_from_db()
    valid = {
        f"{totp(device.bin_key, device.step, device.t0, device.digits, device.drift + d):06d}"
        for d in range(-device.tolerance - 1, device.tolerance + 2)
    }
    return next(code for code in (f"{n:06d}" for n in range(1000000)) if code not in valid)


def error_of(response, status: int, code: str) -> dict:
    """Assert `response` is `status` with error `code`; return the error object."""
    assert response.status_code == status, (response.status_code, response.content)
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def agent_session(base: str, email: str) -> requests.Session:
    """A signed-in agent's HTTP session against a live server at `base` (cookie and XSRF header)."""
    http = requests.Session()
    http.get(f"{base}/api/csrf-cookie", timeout=10)
    http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]
    signed_in = http.post(f"{base}/api/login", json={"email": email, "password": factories.PASSWORD}, timeout=10)
    assert signed_in.status_code == 200, signed_in.text
    http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]  # a new token comes with the session
    return http
