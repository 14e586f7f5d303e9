"""Liveness (/healthz) and readiness (/readyz).

Ready means the database answers: without it no surface works, so a load balancer should send
traffic elsewhere (503). Redis is not required: every REST surface keeps working without it
(throttles and caches fail open, real-time clients poll; docs/decisions/operations.md), so Redis
down is "degraded" (200, said in the body and in the `kiosk_dependency_up` metric), and a balancer
does not pull every web process at once when Redis fails over.
"""

from django.conf import settings
from django.db import connection
from django.http import HttpRequest, JsonResponse
from prometheus_client import Gauge

DEPENDENCY_UP = Gauge(
    "kiosk_dependency_up",
    "1 when this process's last readiness check reached the dependency, 0 when it did not.",
    ["dependency"],
)
REQUIRED = {"database": True, "redis": False}


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})


def _check_database() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return "ok"


def _check_redis() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
    try:
        client.ping()
    finally:
        client.close()
    return "ok"


def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    ready, degraded = True, False
    for name, check in (("database", _check_database), ("redis", _check_redis)):
        try:
            checks[name] = check()
            DEPENDENCY_UP.labels(dependency=name).set(1)
        except Exception as exc:  # any failure is reported with its kind, never its internals
            checks[name] = f"error: {exc.__class__.__name__}"
            DEPENDENCY_UP.labels(dependency=name).set(0)
            if REQUIRED[name]:
                ready = False
            else:
                degraded = True
    status = "unavailable" if not ready else "degraded" if degraded else "ok"
    return JsonResponse({"status": status, "checks": checks}, status=200 if ready else 503)
