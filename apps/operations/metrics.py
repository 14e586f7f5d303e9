"""Prometheus metrics at /metrics: the request latency per surface (apps/api/metrics.py),
WebSocket connections, and figures read from the database at scrape time (sessions by status,
webhook deliveries by status, payments repaired by the reconciliation sweep), so they are the
same whichever web process Prometheus happens to scrape.

The figures read several domain apps, so they live in this surface above them, not in apps/api;
importing this module (the URLconf does, for the view) registers them with the registry.

Request latency and WebSocket counts are per process (each daphne is scraped on its own).
Set METRICS_TOKEN to require `Authorization: Bearer <token>` on the scrape; production requires it
(only local and test runs may leave the scrape open).
"""

import hmac
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.db.models import Count, Manager, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseNotFound
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, Gauge, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from apps.billing.models import Payment
from apps.realtime.consumer import closed_connection_count, open_connection_count
from apps.sessions.models import Session, SessionStatus
from apps.webhooks.models import DeliveryStatus, WebhookDelivery

WEBSOCKET_CONNECTIONS = Gauge("kiosk_websocket_connections", "Open real-time WebSocket connections in this process.")
WEBSOCKET_CONNECTIONS.set_function(open_connection_count)  # read at scrape time: never stale

_RECONCILED_HELP = (
    "Payments settled by the reconciliation sweep because the processor's event had not arrived, by outcome "
    "(order confirmed or failed)."
)

_LATE_HELP = (
    "Card-reader payments approved after they were cancelled (the session had gone on): no order was made and "
    "the charge is refunded automatically."
)


class DatabaseFiguresCollector(Collector):
    """Sessions and webhook deliveries by status and reconciled payments by outcome, counted in the
    database at scrape time."""

    def describe(self) -> Iterator[Metric]:
        # Registration would otherwise call collect() at import, before the database is ready.
        yield GaugeMetricFamily("kiosk_sessions", "Sessions by status.", labels=["status"])
        yield GaugeMetricFamily("kiosk_webhook_deliveries", "Webhook deliveries by status.", labels=["status"])
        yield GaugeMetricFamily("kiosk_payments_reconciled", _RECONCILED_HELP, labels=["outcome"])
        yield GaugeMetricFamily("kiosk_payments_refunded_late", _LATE_HELP)

    def collect(self) -> Iterator[Metric]:
        yield _by_status(
            "kiosk_sessions", "Sessions by status.", Session.objects, [choice.value for choice in SessionStatus]
        )
        yield _by_status(
            "kiosk_webhook_deliveries",
            "Webhook deliveries by status (pending includes those waiting for a retry).",
            WebhookDelivery.objects,
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
        late = GaugeMetricFamily("kiosk_payments_refunded_late", _LATE_HELP)
        late.add_metric([], Payment.objects.filter(late_success_at__isnull=False).count())
        yield late


def _by_status(
    name: str,
    documentation: str,
    manager: QuerySet[Any] | Manager[Any],
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

    def collect(self) -> Iterator[Metric]:
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
