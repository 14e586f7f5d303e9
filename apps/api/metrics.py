"""Prometheus metrics at /metrics: request latency per surface, WebSocket connections, and
figures read from the database at scrape time (sessions by status, webhook deliveries by status,
payments repaired by the reconciliation sweep),
so they are the same whichever web process Prometheus happens to scrape.

Request latency and WebSocket counts are per process (each daphne is scraped on its own).
Set METRICS_TOKEN to require `Authorization: Bearer <token>` on the scrape; production requires it
(only local and test runs may leave the scrape open).
"""

import functools
import hmac
import time
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from apps.api.middleware import GetResponse
from apps.api.surfaces import surface_for_path
from apps.realtime.consumer import closed_connection_count, open_connection_count

REQUEST_LATENCY = Histogram(
    "kiosk_http_request_duration_seconds",
    "Time to answer an HTTP request, by API surface, method and status code.",
    ["surface", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
WEBSOCKET_CONNECTIONS = Gauge("kiosk_websocket_connections", "Open real-time WebSocket connections in this process.")
WEBSOCKET_CONNECTIONS.set_function(open_connection_count)  # read at scrape time: never stale

_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}


class RequestMetricsMiddleware:
    """Observe every HTTP request's latency (labels kept to a bounded set)."""

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        observe_request(request.path, request.method or "", response.status_code, time.perf_counter() - started)
        return response


def observe_request(path: str, method: str, status: int, seconds: float) -> None:
    """Record one answered HTTP request (also called by the kiosk hot path, outside Django)."""
    surface = "panel" if path.startswith("/panel/") else str(surface_for_path(path) or "other")
    _latency(surface, method if method in _METHODS else "OTHER", status).observe(seconds)


@functools.lru_cache(maxsize=512)  # the labels are a bounded set; labels() takes a lock per call
def _latency(surface: str, method: str, status: int) -> Histogram:
    """The histogram's child for one set of labels (prometheus_client returns the same child for the
    same labels, so keeping it is safe)."""
    return REQUEST_LATENCY.labels(surface=surface, method=method, status=str(status))


_RECONCILED_HELP = (
    "Payments settled by the reconciliation sweep because the processor's event had not arrived, by outcome "
    "(order confirmed or failed)."
)


class DatabaseFiguresCollector(Collector):
    """Sessions and webhook deliveries by status and reconciled payments by outcome, counted in the
    database at scrape time."""

    def describe(self) -> Iterator[GaugeMetricFamily]:
        # Registration would otherwise call collect() at import, before the database is ready.
        yield GaugeMetricFamily("kiosk_sessions", "Sessions by status.", labels=["status"])
        yield GaugeMetricFamily("kiosk_webhook_deliveries", "Webhook deliveries by status.", labels=["status"])
        yield GaugeMetricFamily("kiosk_payments_reconciled", _RECONCILED_HELP, labels=["outcome"])

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from apps.billing.models import Payment
        from apps.sessions.models import Session, SessionStatus
        from apps.webhooks.models import DeliveryStatus, WebhookDelivery

        yield _by_status(
            "kiosk_sessions", "Sessions by status.", Session.objects.all(), [choice.value for choice in SessionStatus]
        )
        yield _by_status(
            "kiosk_webhook_deliveries",
            "Webhook deliveries by status (pending includes those waiting for a retry).",
            WebhookDelivery.objects.all(),
            [choice.value for choice in DeliveryStatus],
        )
        reconciled = Payment.objects.exclude(reconciled_outcome="")
        yield _by_status(
            "kiosk_payments_reconciled",
            _RECONCILED_HELP,
            reconciled,
            ["confirmed", "failed"],
            column="reconciled_outcome",
            label="outcome",
        )


def _by_status(
    name: str,
    documentation: str,
    manager: QuerySet[Model],
    statuses: list[str],
    *,
    column: str = "status",
    label: str = "status",
) -> GaugeMetricFamily:
    counts = dict.fromkeys(statuses, 0)
    counts.update({row[column]: row["n"] for row in manager.values(column).annotate(n=Count("pk"))})
    family = GaugeMetricFamily(name, documentation, labels=[label])
    for status, count in counts.items():
        family.add_metric([status], count)
    return family


REGISTRY.register(DatabaseFiguresCollector())


class ClosedWebSocketsCollector(Collector):
    """WebSockets this process has closed (config/memory_trim.py collects after many)."""

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(
            "kiosk_websocket_closed", "WebSocket connections this process has closed.", value=closed_connection_count()
        )


REGISTRY.register(ClosedWebSocketsCollector())


def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.METRICS_TOKEN
    # Production refuses to start without a token; should one be emptied later, still closed.
    if token or settings.PRODUCTION:
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not token or not hmac.compare_digest(given.encode(), token.encode()):
            return HttpResponseNotFound()  # do not advertise the endpoint to strangers
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
