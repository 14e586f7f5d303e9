"""Prometheus request latency per surface, observed by RequestMetricsMiddleware for Django's
answers and by the kiosk hot path for its own (per process: each daphne is scraped on its own).
The scrape at /metrics, and the figures it reads from the apps (database counts, WebSocket
connections), are the operators' surface's (apps/operations/metrics.py): this module sits
below the domain apps and reads none of them."""

import functools
import time

from django.http import HttpRequest, HttpResponse
from prometheus_client import Histogram

from apps.api.middleware import GetResponse
from apps.api.surfaces import surface_for_path

REQUEST_LATENCY = Histogram(
    "kiosk_http_request_duration_seconds",
    "Time to answer an HTTP request, by API surface, method and status code.",
    ["surface", "method", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
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
