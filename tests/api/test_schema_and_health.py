"""The OpenAPI 3 document of all three surfaces with each surface's security scheme
(/api/schema/), generated without a warning, the interactive docs (/api/docs/), liveness
(/healthz) and readiness (/readyz)."""

import json

import pusher
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client, override_settings
from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.validation import validate_schema
from pusher.http import GET, Request

from apps.api import health
from tests.support.schema_conformance import assert_conforms

KIOSK_SCHEME = {"deviceId": [], "deviceToken": []}
AGENT_SCHEME = {"agentSession": [], "xsrfToken": []}
TOKEN_SCHEME = {"bearerToken": []}


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    return json.loads(response.content)


def _security(schema: dict, path: str, method: str):
    return schema["paths"][path][method].get("security", schema.get("security"))


def test_schema_is_a_valid_openapi_3_document(schema):
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"]
    validate_schema(schema)  # raises on a document that breaks the OpenAPI 3.0 JSON schema


@pytest.mark.parametrize(
    "path",
    [
        # kiosk
        "/api/public/kiosks/pair",
        "/api/public/kiosks/heartbeat",
        "/api/public/sessions/start",
        "/api/public/sessions/{public_id}/status",
        "/api/public/sessions/{public_id}/order",
        "/api/public/video/token",
        # agent
        "/api/csrf-cookie",
        "/api/login",
        "/api/login/2fa",
        "/api/logout",
        "/api/sessions/incoming",
        "/api/sessions/{public_id}/accept",
        "/api/sessions/{public_id}/end",
        "/api/menu",
        "/api/orders",
        "/api/agent/status",
        "/api/video/token",
        "/api/video/token/refresh",
        # token
        "/api/auth/login",
        "/api/auth/logout",
        "/api/v1/orders",
        "/api/v1/webhooks",
        "/api/v1/webhooks/{subscription_id}",
    ],
)
def test_schema_documents_the_routes_of_all_three_surfaces(schema, path):
    assert path in schema["paths"]


def test_schema_has_no_catch_all_or_regex_paths(schema):
    for path in schema["paths"]:
        assert not set(path) & set("^$*()\\"), path


def test_schema_declares_the_three_surfaces_security_schemes(schema):
    schemes = schema["components"]["securitySchemes"]
    assert schemes["deviceId"] == {"type": "apiKey", "in": "header", "name": "X-Device-Id"}
    assert schemes["deviceToken"] == {"type": "apiKey", "in": "header", "name": "X-Device-Token"}
    assert schemes["agentSession"] == {
        "type": "apiKey",
        "in": "cookie",
        "name": "app_session",
        "description": "A signed-in agent (POST /api/login).",
    }
    assert schemes["xsrfToken"]["in"] == "header" and schemes["xsrfToken"]["name"] == "X-XSRF-TOKEN"
    assert schemes["bearerToken"]["type"] == "http" and schemes["bearerToken"]["scheme"] == "bearer"


@pytest.mark.parametrize(
    "path,method,expected",
    [
        ("/api/public/sessions/start", "post", [KIOSK_SCHEME]),
        ("/api/public/sessions/{public_id}/status", "get", [KIOSK_SCHEME]),
        ("/api/sessions/incoming", "get", [AGENT_SCHEME]),
        ("/api/agent/status", "post", [AGENT_SCHEME]),
        ("/api/v1/webhooks", "get", [TOKEN_SCHEME]),
        ("/api/auth/logout", "post", [TOKEN_SCHEME]),
    ],
)
def test_each_operation_requires_its_surfaces_scheme(schema, path, method, expected):
    assert _security(schema, path, method) == expected


@pytest.mark.parametrize(
    "path,method",
    [
        ("/api/public/kiosks/pair", "post"),
        ("/api/login", "post"),
        ("/api/csrf-cookie", "get"),
        ("/api/auth/login", "post"),
    ],
)
def test_sign_in_and_pairing_operations_need_no_credentials(schema, path, method):
    assert not _security(schema, path, method)


def test_schema_generates_without_warnings_or_errors_and_validates(tmp_path):
    """What `manage.py spectacular --validate --fail-on-warn` checks: a view drf-spectacular cannot
    read (no serializer, an unknown authenticator) is a warning and is left out of the document."""
    GENERATOR_STATS.reset()  # process-wide counts: only this generation's
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yaml"))
    assert not GENERATOR_STATS


PUSHER_SCHEME = {"pusherSignature": []}


@pytest.mark.parametrize(
    "path,method,request_body",
    [
        ("/apps/{app_id}/events", "post", "PusherEventInRequest"),
        ("/apps/{app_id}/batch_events", "post", "PusherBatchEventsInRequest"),
        ("/apps/{app_id}/channels", "get", None),
        ("/apps/{app_id}/channels/{channel}", "get", None),
        ("/apps/{app_id}/channels/{channel}/users", "get", None),
        ("/apps/{app_id}/users/{user_id}/terminate_connections", "post", None),
        ("/apps/{app_id}/users/{user_id}/events", "post", "PusherUserEventInRequest"),
    ],
)
def test_schema_documents_the_pusher_http_api(schema, path, method, request_body):
    operation = schema["paths"][path][method]
    assert _security(schema, path, method) == [PUSHER_SCHEME]
    assert "application/json" in operation["responses"]["200"]["content"]
    if request_body:
        body = operation["requestBody"]
        assert body["required"] is True
        assert body["content"]["application/json"]["schema"]["$ref"].endswith("/" + request_body)


def test_schema_describes_the_pusher_signature_and_the_panel_session(schema):
    schemes = schema["components"]["securitySchemes"]
    assert {key: schemes["pusherSignature"][key] for key in ("type", "in", "name")} == {
        "type": "apiKey",
        "in": "query",
        "name": "auth_signature",
    }
    for parameter in ("auth_key", "auth_timestamp", "auth_version", "body_md5"):
        assert parameter in schemes["pusherSignature"]["description"]
    assert schemes["panelSession"]["in"] == "cookie" and schemes["panelSession"]["name"] == "app_session"
    assert {"panelSession": []} in _security(schema, "/broadcasting/auth", "post")
    event = schema["components"]["schemas"]["PusherEventInRequest"]
    assert {"name", "data", "channels", "channel", "socket_id", "info"} <= set(event["properties"])


@pytest.mark.parametrize(
    "path,params,component",
    [
        ("/channels", {"filter_by_prefix": "presence-", "info": "user_count"}, "PusherChannelsOut"),
        ("/channels/presence-owner.1", {"info": "user_count,subscription_count"}, "PusherChannelOut"),
        ("/channels/presence-owner.1/users", {}, "PusherChannelUsersOut"),
    ],
)
def test_pusher_http_api_answers_conform_to_the_schema(db, path, params, component):
    library = pusher.Pusher(
        app_id=str(settings.REALTIME_APP_ID), key=settings.REALTIME_APP_KEY, secret=settings.REALTIME_APP_SECRET
    )
    request = Request(library._pusher_client, GET, f"/apps/{settings.REALTIME_APP_ID}{path}", params)
    response = Client().get(f"{request.path}?{request.query_string}")
    assert response.status_code == 200, response.content
    assert_conforms(response.json(), component)


def test_schema_is_served_as_yaml_by_default_and_json_on_accept(db):
    yaml = Client().get("/api/schema/")
    assert yaml.status_code == 200
    assert yaml["Content-Type"].startswith("application/vnd.oai.openapi")
    assert yaml.content.startswith(b"openapi: 3.")
    as_json = Client().get("/api/schema/", headers={"Accept": "application/json"})
    assert as_json.status_code == 200
    assert json.loads(as_json.content)["openapi"].startswith("3.")


def test_docs_page_is_html_pointing_at_the_schema(db):
    response = Client().get("/api/docs/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    body = response.content.decode()
    assert "swagger" in body.lower()
    assert "/api/schema/" in Client().get("/api/docs/?script=").content.decode()  # its start-up script


# --- Health ------------------------------------------------------------------------------


def test_healthz_is_200_without_credentials(db):
    response = Client().get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_reports_the_database_and_redis(db):
    response = Client().get("/readyz")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"] == ("ok" if settings.REDIS_URL else "not configured")


def test_readyz_is_503_when_the_database_is_down(db, monkeypatch):
    def broken():
        raise ConnectionError("database gone")

    monkeypatch.setattr(health, "_check_database", broken)
    response = Client().get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "error: ConnectionError"
    assert "database gone" not in response.content.decode()  # no internals


def test_readyz_is_200_degraded_when_redis_is_configured_but_unreachable(db):
    """The REST surfaces work without Redis: a balancer must not pull every process when Redis is down."""
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):  # nothing listens on port 1
        response = Client().get("/readyz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["redis"].startswith("error: ")
    metrics = Client().get("/metrics").content.decode()
    assert 'kiosk_dependency_up{dependency="redis"} 0.0' in metrics
    assert 'kiosk_dependency_up{dependency="database"} 1.0' in metrics


def test_readyz_is_503_without_the_database_even_with_redis_down(db, monkeypatch):
    def broken():
        raise ConnectionError("database gone")

    monkeypatch.setattr(health, "_check_database", broken)
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = Client().get("/readyz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
