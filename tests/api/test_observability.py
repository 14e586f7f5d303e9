"""Running it for real: Prometheus metrics at /metrics and JSON log lines carrying the request id."""

import io
import json
import logging

import pytest
from django.conf import settings
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

from apps.api.logs import RequestIdFilter
from tests import factories


def scrape(client: Client, **headers) -> dict[str, list]:
    response = client.get("/metrics", headers=headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    return {family.name: family.samples for family in text_string_to_metric_families(response.content.decode())}


def sample_value(samples, **labels) -> float:
    return sum(s.value for s in samples if all(s.labels.get(k) == v for k, v in labels.items()))


def test_request_latency_is_observed_per_surface(kiosk_client, kiosk):
    before = sample_value(scrape(Client())["kiosk_http_request_duration_seconds"], surface="kiosk", status="404")
    assert kiosk_client.get("/api/public/no-such-route").status_code == 404
    samples = scrape(Client())["kiosk_http_request_duration_seconds"]
    counts = [s for s in samples if s.name.endswith("_count")]
    assert sample_value(counts, surface="kiosk", method="GET", status="404") >= 1
    assert sample_value(samples, surface="kiosk", status="404") > before


def test_sessions_and_webhook_deliveries_are_counted_by_status(kiosk):
    factories.SessionFactory(kiosk=kiosk)
    factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business), status="completed")
    families = scrape(Client())
    sessions = families["kiosk_sessions"]
    assert sample_value(sessions, status="pending") == 1
    assert sample_value(sessions, status="completed") == 1
    assert sample_value(sessions, status="failed") == 0  # every status is present, even at zero
    assert {s.labels["status"] for s in families["kiosk_webhook_deliveries"]} >= {"pending", "succeeded", "failed"}
    assert "kiosk_websocket_connections" in families


def test_metrics_token_hides_the_endpoint_from_strangers(db, settings):
    settings.METRICS_TOKEN = "scrape-me"
    assert Client().get("/metrics").status_code == 404
    assert Client().get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 404
    assert "kiosk_sessions" in scrape(Client(), Authorization="Bearer scrape-me")


@pytest.fixture
def json_log_lines():
    """The production log handler (JSON formatter + request id filter) on django.request."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    formatter_config = dict(settings.LOGGING["formatters"]["json"])
    formatter_class = formatter_config.pop("()")
    module, _, name = formatter_class.rpartition(".")
    handler.setFormatter(getattr(__import__(module, fromlist=[name]), name)(**formatter_config))
    handler.addFilter(RequestIdFilter())
    logger = logging.getLogger("django.request")
    logger.addHandler(handler)
    yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    logger.removeHandler(handler)


def test_log_lines_are_json_with_the_request_id(db, json_log_lines):
    response = Client().get("/api/v1/no-such-route", headers={"X-Request-Id": "req-42.abc"})
    assert response.status_code == 404 and response["X-Request-Id"] == "req-42.abc"
    [line] = json_log_lines()
    assert line["request_id"] == "req-42.abc"
    assert line["level"] == "WARNING" and line["logger"] == "django.request"
    assert "/api/v1/no-such-route" in line["message"] and line["time"]
