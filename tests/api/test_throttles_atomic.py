"""Every throttle counts with the atomic window (AtomicWindowThrottle: one Redis INCR per request),
so concurrent requests cannot slip past a limit: DRF's SimpleRateThrottle reads its history, appends
and writes it back, and parallel requests overwrote each other's counts."""

import threading
from types import SimpleNamespace

import pytest
from django.test import RequestFactory
from rest_framework.throttling import SimpleRateThrottle

from apps.api.throttles import AgentThrottle, AtomicWindowThrottle, KioskThrottle, PairingThrottle, TokenApiThrottle
from apps.owner_api.api.base import OwnerApiThrottle
from apps.owner_api.api.token import TokenRequestThrottle

LIMIT = 10
CALLERS = 40


def test_every_throttle_counts_with_the_atomic_window():
    throttles = [KioskThrottle, PairingThrottle, AgentThrottle, TokenApiThrottle]
    throttles += [OwnerApiThrottle, TokenRequestThrottle]
    for throttle in throttles:
        assert issubclass(throttle, AtomicWindowThrottle), throttle
        assert throttle.allow_request is AtomicWindowThrottle.allow_request, throttle
    # and no throttle class elsewhere in apps/ still derives DRF's racy one directly
    racy = {cls for cls in _all_subclasses(SimpleRateThrottle) if cls.__module__.startswith("apps.")}
    assert racy <= set(_all_subclasses(AtomicWindowThrottle)) | {AtomicWindowThrottle}, racy


def _all_subclasses(cls) -> list[type]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_all_subclasses(sub)]
    return found


def _request(ip: str = "198.51.100.20"):
    request = RequestFactory().post("/", REMOTE_ADDR=ip)
    request.user = SimpleNamespace(pk=4242)  # an API key, for the owner API's per-key bucket
    return request


@pytest.mark.parametrize("throttle_class", [OwnerApiThrottle, TokenRequestThrottle], ids=["per-key", "token-per-ip"])
def test_concurrent_requests_cannot_exceed_the_limit(throttle_class, monkeypatch):
    monkeypatch.setitem(throttle_class.THROTTLE_RATES, throttle_class.scope, f"{LIMIT}/min")
    monkeypatch.setattr(throttle_class, "timer", lambda self: 1_000_020.0)  # one window for all
    start = threading.Barrier(CALLERS)
    allowed = []

    def call():
        request = _request()
        start.wait()
        allowed.append(throttle_class().allow_request(request, None))

    threads = [threading.Thread(target=call) for _ in range(CALLERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert len(allowed) == CALLERS
    assert allowed.count(True) == LIMIT, allowed.count(True)
