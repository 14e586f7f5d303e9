"""Surface plumbing (spec 5 and 7, decisions "API surfaces"): every error on a surface is that
surface's envelope, the kiosk one `{error: {code, message, request_id}}`, the agent and token one
`{error: {code, message}}`, for 401, unknown routes, wrong methods, validation errors, malformed
JSON, unsupported content types and throttling; request ids; CORS for the kiosk web app only."""

import re
from dataclasses import dataclass

import pytest
from django.test import Client

from apps.accounts import services as account_services
from apps.api.throttles import AgentThrottle, KioskThrottle, TokenApiThrottle
from tests import factories
from tests.conftest import AgentClient
from tests.support.auth import bearer, error_of

KIOSK_APP_ORIGIN = "https://kiosk-app.example.test"
GENERATED_ID = re.compile(r"^[0-9a-f]{32}$")


@dataclass
class Surface:
    name: str
    client: Client
    read: str  # an authenticated GET
    write: str  # an authenticated POST with a JSON body
    valid_body: dict
    invalid_body: dict
    invalid_fields: set
    base: str  # where unknown routes are tried


def _envelope(response, status: int, code: str, surface: str) -> dict:
    """Assert the surface's exact envelope; return the error object."""
    error = error_of(response, status, code)
    assert set(response.json()) == {"error"}
    keys = {"code", "message"} | ({"details"} if "details" in error else set())
    if surface == "kiosk":
        assert set(error) == keys | {"request_id"}
        assert error["request_id"] == response["X-Request-Id"]
    else:
        assert set(error) == keys
    return error


@pytest.fixture
def kiosk_surface(kiosk, kiosk_client) -> Surface:
    return Surface(
        name="kiosk",
        client=kiosk_client,
        read="/api/public/kiosks/heartbeat",  # POST-only; reads are tested with POST below
        write="/api/public/sessions/start",
        valid_body={"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        invalid_body={"device_id": "not-a-uuid", "customer_locale": "!!"},
        invalid_fields={"device_id", "customer_locale"},
        base="/api/public/",
    )


@pytest.fixture
def agent_surface(agent, agent_client) -> Surface:
    return Surface(
        name="agent",
        client=agent_client,
        read="/api/sessions/incoming",
        write="/api/agent/status",
        valid_body={"status": "break"},
        invalid_body={"status": "asleep"},
        invalid_fields={"status"},
        base="/api/",
    )


@pytest.fixture
def token_surface(agent) -> Surface:
    _, token = account_services.access_token_issue(user=agent)
    return Surface(
        name="token",
        client=Client(headers=bearer(token)),
        read="/api/v1/webhooks",
        write="/api/v1/webhooks",
        valid_body={"url": "https://hooks.example.test/in", "events": ["order.created"]},
        invalid_body={"url": "not a url", "events": ["no.such.event"]},
        invalid_fields={"url", "events"},
        base="/api/v1/",
    )


@pytest.fixture(params=["kiosk", "agent", "token"])
def surface(request) -> Surface:
    return request.getfixturevalue(f"{request.param}_surface")


# --- 401 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [{}, {"X-Device-Id": "00000000-0000-4000-8000-000000000000"}, {"X-Device-Token": "x"}],
    ids=["none", "id-only", "token-only"],
)
def test_kiosk_without_device_credentials_is_401_device_token_invalid_with_request_id(db, headers):
    response = Client(headers=headers).post("/api/public/kiosks/heartbeat")
    error = _envelope(response, 401, "DEVICE_TOKEN_INVALID", "kiosk")
    assert GENERATED_ID.match(error["request_id"])
    assert response["WWW-Authenticate"] == "Device"


def test_kiosk_with_a_wrong_token_or_a_foreign_device_id_is_401(kiosk, other_business):
    other = factories.KioskFactory(business=other_business)
    for headers in (
        {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": "wrong"},
        {"X-Device-Id": str(other.device_id), "X-Device-Token": kiosk.raw_token},
        {"X-Device-Id": "not-a-uuid", "X-Device-Token": kiosk.raw_token},
    ):
        response = Client(headers=headers).post("/api/public/kiosks/heartbeat")
        _envelope(response, 401, "DEVICE_TOKEN_INVALID", "kiosk")


def test_agent_api_without_a_session_is_401_without_request_id(db):
    for response in (Client().get("/api/sessions/incoming"), AgentClient().post("/api/agent/status", {})):
        error = _envelope(response, 401, "UNAUTHENTICATED", "agent")
        assert "request_id" not in error
        assert response["X-Request-Id"]  # the header is still there
        assert response["WWW-Authenticate"] == "Session"


@pytest.mark.parametrize("authorization", [None, "Bearer 1|nope", "Bearer garbage", "Basic dXNlcjpwYXNz"])
def test_token_api_without_a_valid_bearer_token_is_401(db, authorization):
    headers = {"Authorization": authorization} if authorization else {}
    response = Client(headers=headers).get("/api/v1/webhooks")
    error = _envelope(response, 401, "UNAUTHENTICATED", "token")
    assert "request_id" not in error
    assert response["WWW-Authenticate"] == "Bearer"


def test_token_api_refuses_an_ownerless_agents_token_with_the_spec_message(db):
    ownerless = factories.AgentFactory(owner=None)
    _, token = account_services.access_token_issue(user=ownerless)
    response = Client(headers=bearer(token)).get("/api/v1/webhooks")
    error = _envelope(response, 403, "FORBIDDEN", "token")
    assert error["message"] == "Token not associated with an owner"


def test_credentials_of_one_surface_do_not_work_on_another(kiosk_client, agent_client, agent):
    _, token = account_services.access_token_issue(user=agent)
    _envelope(kiosk_client.get("/api/sessions/incoming"), 401, "UNAUTHENTICATED", "agent")
    _envelope(agent_client.post("/api/public/kiosks/heartbeat"), 401, "DEVICE_TOKEN_INVALID", "kiosk")
    _envelope(Client(headers=bearer(token)).get("/api/sessions/incoming"), 401, "UNAUTHENTICATED", "agent")
    _envelope(agent_client.get("/api/v1/webhooks"), 401, "UNAUTHENTICATED", "token")


# --- Unknown routes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "path,surface_name",
    [
        ("/api/public/no-such-thing", "kiosk"),
        ("/api/public/sessions/abc/nope", "kiosk"),
        ("/api/public", "kiosk"),
        ("/api/no-such-thing", "agent"),
        ("/api/sessions/incoming/", "agent"),
        ("/api/v1/no-such-thing", "token"),
        ("/api/v1", "token"),
        ("/api/auth/nope", "token"),
    ],
)
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_unknown_route_is_404_not_found_in_the_surfaces_envelope(db, path, surface_name, method):
    response = getattr(Client(), method)(path)
    _envelope(response, 404, "NOT_FOUND", surface_name)


def test_unknown_route_is_404_even_with_valid_credentials(surface):
    response = surface.client.get(surface.base + "no-such-thing")
    _envelope(response, 404, "NOT_FOUND", surface.name)


# --- Wrong method ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "surface_name,method,path,allowed",
    [
        ("kiosk", "get", "/api/public/kiosks/heartbeat", {"POST", "OPTIONS"}),
        ("kiosk", "put", "/api/public/sessions/start", {"POST", "OPTIONS"}),
        ("agent", "get", "/api/agent/status", {"POST", "OPTIONS"}),
        ("agent", "delete", "/api/sessions/incoming", {"GET", "HEAD", "OPTIONS"}),
        ("token", "delete", "/api/v1/webhooks", {"GET", "HEAD", "POST", "OPTIONS"}),
        ("token", "get", "/api/auth/logout", {"POST", "OPTIONS"}),
    ],
)
def test_wrong_method_is_405_with_allow(request, surface_name, method, path, allowed):
    client = request.getfixturevalue(f"{surface_name}_surface").client
    response = getattr(client, method)(path)
    _envelope(response, 405, "METHOD_NOT_ALLOWED", surface_name)
    assert {m.strip() for m in response["Allow"].split(",")} == allowed


@pytest.mark.parametrize(
    "path,surface_name,allowed",
    [("/api/public/kiosks/pair", "kiosk", {"POST", "OPTIONS"}), ("/api/login", "agent", {"POST", "OPTIONS"})],
)
def test_wrong_method_on_an_unauthenticated_route_is_405(db, path, surface_name, allowed):
    response = Client().get(path)
    _envelope(response, 405, "METHOD_NOT_ALLOWED", surface_name)
    assert {m.strip() for m in response["Allow"].split(",")} == allowed


# --- Bodies: 422, 400, 415 ---------------------------------------------------------------


def test_invalid_fields_are_422_validation_error_with_field_details(surface):
    response = surface.client.post(surface.write, surface.invalid_body, content_type="application/json")
    error = _envelope(response, 422, "VALIDATION_ERROR", surface.name)
    assert set(error["details"]) == surface.invalid_fields
    for messages in error["details"].values():
        assert messages and all(isinstance(message, str) for message in messages)


def test_a_missing_body_is_422_naming_the_required_fields(surface):
    response = surface.client.post(surface.write, {}, content_type="application/json")
    error = _envelope(response, 422, "VALIDATION_ERROR", surface.name)
    assert set(error["details"]) == set(surface.valid_body)


def test_a_json_array_body_is_422_not_500(surface):
    response = surface.client.post(surface.write, [1, 2], content_type="application/json")
    _envelope(response, 422, "VALIDATION_ERROR", surface.name)


@pytest.mark.parametrize("raw", ['{"status": ', "{'single': 'quotes'}", "\x00\xff", "[1, 2"])
def test_malformed_json_is_400_malformed_request(surface, raw):
    response = surface.client.post(surface.write, raw, content_type="application/json")
    _envelope(response, 400, "MALFORMED_REQUEST", surface.name)


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_unsupported_content_type_is_415(surface, content_type):
    response = surface.client.post(surface.write, "status=break", content_type=content_type)
    _envelope(response, 415, "UNSUPPORTED_MEDIA_TYPE", surface.name)


def test_unauthenticated_malformed_json_is_400_on_the_login_routes(db):
    response = Client().post("/api/auth/login", "{", content_type="application/json")
    _envelope(response, 400, "MALFORMED_REQUEST", "token")
    response = Client().post("/api/public/kiosks/pair", "{", content_type="application/json")
    _envelope(response, 400, "MALFORMED_REQUEST", "kiosk")
    agent = AgentClient()
    agent.get("/api/csrf-cookie")
    _envelope(agent.post("/api/login", "{", content_type="application/json"), 400, "MALFORMED_REQUEST", "agent")


def test_the_valid_bodies_used_above_really_are_valid(surface):
    """Guards the tests above: the same route accepts a well-formed body."""
    response = surface.client.post(surface.write, surface.valid_body, content_type="application/json")
    assert response.status_code in (200, 201), response.content


# --- 429 ---------------------------------------------------------------------------------


@pytest.fixture
def low_rates(monkeypatch, one_rate_window):
    """DRF throttles read their rates once, at import, into THROTTLE_RATES; set 2 a minute."""
    for throttle in (KioskThrottle, AgentThrottle, TokenApiThrottle):
        monkeypatch.setitem(throttle.THROTTLE_RATES, throttle.scope, "2/min")


@pytest.mark.parametrize(
    "surface_name,method,path",
    [
        ("kiosk", "post", "/api/public/kiosks/heartbeat"),
        ("agent", "get", "/api/sessions/incoming"),
        ("token", "get", "/api/v1/webhooks"),
    ],
)
def test_over_the_rate_limit_is_429_rate_limited_with_retry_after(request, low_rates, surface_name, method, path):
    client = request.getfixturevalue(f"{surface_name}_surface").client
    assert [getattr(client, method)(path).status_code for _ in range(2)] == [200, 200]

    response = getattr(client, method)(path)

    _envelope(response, 429, "RATE_LIMITED", surface_name)
    assert 1 <= int(response["Retry-After"]) <= 60


def test_the_kiosk_bucket_is_per_kiosk(low_rates, kiosk_client, business):
    for _ in range(2):
        kiosk_client.post("/api/public/kiosks/heartbeat")
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 429
    other = factories.KioskFactory(business=business)
    other_client = Client(headers={"X-Device-Id": str(other.device_id), "X-Device-Token": other.raw_token})
    assert other_client.post("/api/public/kiosks/heartbeat").status_code == 200


# --- Request ids -------------------------------------------------------------------------


@pytest.mark.parametrize("request_id", ["abc-123", "req_01HZX.9:part", "a" * 128])
def test_a_well_formed_client_request_id_is_echoed_on_success_and_in_kiosk_errors(kiosk_client, request_id):
    ok = kiosk_client.post("/api/public/kiosks/heartbeat", headers={"X-Request-Id": request_id})
    assert ok.status_code == 200
    assert ok["X-Request-Id"] == request_id

    failed = Client().post("/api/public/kiosks/heartbeat", headers={"X-Request-Id": request_id})
    error = _envelope(failed, 401, "DEVICE_TOKEN_INVALID", "kiosk")
    assert error["request_id"] == request_id


@pytest.mark.parametrize(
    "request_id",
    ["a" * 129, "has space", "semi;colon", "<script>", "ünïcode", "line\tbreak", "trailing-newline\n", ""],
    ids=repr,
)
def test_an_ill_formed_request_id_is_replaced_by_a_generated_one(db, request_id):
    response = Client().post("/api/public/nope", headers={"X-Request-Id": request_id})
    error = _envelope(response, 404, "NOT_FOUND", "kiosk")
    assert response["X-Request-Id"] != request_id
    assert GENERATED_ID.match(response["X-Request-Id"])
    assert error["request_id"] == response["X-Request-Id"]


def test_without_a_client_id_each_request_gets_its_own(db):
    first = Client().get("/api/public/nope")
    second = Client().get("/api/public/nope")
    assert GENERATED_ID.match(first["X-Request-Id"]) and GENERATED_ID.match(second["X-Request-Id"])
    assert first["X-Request-Id"] != second["X-Request-Id"]
    assert first.json()["error"]["request_id"] == first["X-Request-Id"]


@pytest.mark.parametrize("path", ["/api/sessions/incoming", "/api/v1/webhooks", "/healthz"])
def test_the_request_id_header_is_echoed_on_every_surface(db, path):
    response = Client().get(path, headers={"X-Request-Id": "trace-42"})
    assert response["X-Request-Id"] == "trace-42"


# --- CORS --------------------------------------------------------------------------------


@pytest.fixture
def kiosk_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [KIOSK_APP_ORIGIN]
    return KIOSK_APP_ORIGIN


def _preflight(path: str, origin: str, method: str = "POST"):
    return Client().options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": "content-type,x-device-id,x-device-token,x-request-id",
        },
    )


@pytest.mark.parametrize("path", ["/api/public/sessions/start", "/api/public/kiosks/pair", "/api/public/video/token"])
def test_kiosk_app_preflight_is_allowed_with_the_device_headers(db, kiosk_origin, path):
    response = _preflight(path, kiosk_origin)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == kiosk_origin
    allowed_headers = {h.strip().lower() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {"x-device-id", "x-device-token", "content-type", "x-request-id"} <= allowed_headers
    assert "POST" in response["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in response  # no cookies on the kiosk API


def test_kiosk_app_cross_origin_request_gets_the_allow_and_expose_headers(kiosk_origin, kiosk_client):
    response = kiosk_client.post("/api/public/kiosks/heartbeat", headers={"Origin": kiosk_origin})
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == kiosk_origin
    exposed = {h.strip().lower() for h in response["Access-Control-Expose-Headers"].split(",")}
    assert {"x-request-id", "retry-after"} <= exposed


def test_kiosk_app_gets_cors_headers_on_errors_too(db, kiosk_origin):
    response = Client().post("/api/public/kiosks/heartbeat", headers={"Origin": kiosk_origin})
    _envelope(response, 401, "DEVICE_TOKEN_INVALID", "kiosk")
    assert response["Access-Control-Allow-Origin"] == kiosk_origin


@pytest.mark.parametrize("origin", ["https://evil.example.test", "http://localhost:5174", KIOSK_APP_ORIGIN + ".evil"])
def test_another_origin_gets_no_allow_header(db, kiosk_origin, origin):
    response = _preflight("/api/public/sessions/start", origin)
    assert "Access-Control-Allow-Origin" not in response
    assert "Access-Control-Allow-Headers" not in response


@pytest.mark.parametrize("path", ["/api/login", "/api/sessions/incoming", "/api/auth/login", "/api/v1/webhooks"])
def test_agent_and_token_apis_send_no_cors_headers_even_to_the_kiosk_origin(db, kiosk_origin, path):
    preflight = _preflight(path, kiosk_origin)
    assert not [name for name in preflight.headers if name.lower().startswith("access-control-")]
    actual = Client().get(path, headers={"Origin": kiosk_origin})
    assert not [name for name in actual.headers if name.lower().startswith("access-control-")]


# --- 406, 500, 503 -----------------------------------------------------------------------


def test_an_unsatisfiable_accept_header_is_406_in_the_envelope(surface):
    response = surface.client.post(
        surface.write, surface.valid_body, content_type="application/json", headers={"Accept": "application/xml"}
    )
    assert response["Content-Type"].startswith("application/json")
    _envelope(response, 406, "NOT_ACCEPTABLE", surface.name)


def test_a_browser_accept_header_gets_json(agent_client):
    browser_accept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
    response = agent_client.get("/api/user", headers={"Accept": browser_accept})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")


def _raise(exc):
    def handler(self, request, *args, **kwargs):
        raise exc

    return handler


@pytest.mark.parametrize(
    "surface_name,view,method,path",
    [
        ("kiosk", "apps.kiosks.api.kiosk.HeartbeatView", "post", "/api/public/kiosks/heartbeat"),
        ("agent", "apps.accounts.api.agent.CurrentUserView", "get", "/api/user"),
        ("token", "apps.accounts.api.integrations.TokenUserView", "get", "/api/v1/user"),
    ],
)
def test_an_unexpected_error_is_a_500_envelope_without_internals(
    request, monkeypatch, surface_name, view, method, path
):
    client = request.getfixturevalue(f"{surface_name}_surface").client
    monkeypatch.setattr(f"{view}.{method}", _raise(RuntimeError("secret internals at /srv/app.py line 42")))

    response = getattr(client, method)(path)

    error = _envelope(response, 500, "INTERNAL_ERROR", surface_name)
    assert "secret" not in response.content.decode() and "Traceback" not in response.content.decode()
    assert "secret" not in error["message"]


@pytest.mark.parametrize(
    "surface_name,view,method,path",
    [
        ("kiosk", "apps.kiosks.api.kiosk.HeartbeatView", "post", "/api/public/kiosks/heartbeat"),
        ("agent", "apps.accounts.api.agent.CurrentUserView", "get", "/api/user"),
    ],
)
def test_a_lost_database_is_503_with_retry_after(request, monkeypatch, surface_name, view, method, path):
    from django.db import OperationalError

    client = request.getfixturevalue(f"{surface_name}_surface").client
    monkeypatch.setattr(f"{view}.{method}", _raise(OperationalError("server closed the connection")))

    response = getattr(client, method)(path)

    _envelope(response, 503, "SERVICE_UNAVAILABLE", surface_name)
    assert response["Retry-After"] == "5"
    assert "server closed" not in response.content.decode()
