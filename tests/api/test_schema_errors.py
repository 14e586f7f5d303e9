"""The schema tells the truth: every operation documents the error responses it can give, in its
surface's envelope, and schema and validation agree (an empty optional `status=` filter is
documented as absent, a number where a string is documented is refused, a blank video channel is
refused as documented)."""

import pytest
from django.test import Client

from apps.api.schema_errors import DOMAIN_ERRORS
from apps.kiosks.models import Kiosk
from apps.owner_api import services as owner_api_services
from apps.owner_api.scopes import ALL_SCOPES
from tests.owner_api.conftest import OwnerApiClient, token_for
from tests.support.auth import error_of

UNSAFE = {"post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def openapi(django_db_blocker):
    with django_db_blocker.unblock():
        return Client().get("/api/schema/?format=json").json()


def _operations(openapi):
    for path, methods in openapi["paths"].items():
        for method, operation in methods.items():
            if method in {"get", "post", "put", "patch", "delete"}:
                yield path, method, operation


def _envelope_of(response: dict) -> str:
    return response["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]


def test_every_authenticated_operation_documents_401_in_its_surfaces_envelope(openapi):
    checked = 0
    for path, method, operation in _operations(openapi):
        if not operation.get("security") or path == "/api/owner/oauth/token":
            continue
        checked += 1
        expected = "KioskError" if path.startswith("/api/public/") else "Error"
        assert _envelope_of(operation["responses"]["401"]) == expected, (method, path)
        assert "WWW-Authenticate" in operation["responses"]["401"]["headers"]
    assert checked > 30


def test_agent_writes_document_419_and_reads_do_not(openapi):
    for path, method, operation in _operations(openapi):
        agent = {"agentSession": [], "xsrfToken": []} in operation.get("security", [])
        if agent:
            assert ("419" in operation["responses"]) == (method in UNSAFE), (method, path)
    assert "419" in openapi["paths"]["/api/login"]["post"]["responses"]  # the login form checks CSRF itself


def test_bodies_queries_paths_and_throttles_document_their_refusals(openapi):
    for path, method, operation in _operations(openapi):
        responses = operation["responses"]
        locations = {parameter["in"] for parameter in operation.get("parameters", [])}
        if "application/json" in operation.get("requestBody", {}).get("content", {}):
            assert {"400", "413", "415", "422"} <= set(responses), (method, path)
        if "query" in locations:
            assert {"400", "422"} <= set(responses), (method, path)
        if "path" in locations:
            assert "404" in responses, (method, path)
        assert {"406", "503"} <= set(responses), (method, path)
        if "429" in responses:
            assert "Retry-After" in responses["429"]["headers"]
    status = openapi["paths"]["/api/v1/orders"]["get"]["responses"]
    assert {"`TLS_REQUIRED`", "`FORBIDDEN`"} <= set(status["403"]["description"][len("Error codes: ") : -1].split(", "))
    assert "`RATE_LIMITED`" in status["429"]["description"]


def test_domain_errors_name_real_operations_and_are_documented(openapi):
    documented = {f"{method.upper()} {path}": operation for path, method, operation in _operations(openapi)}
    for key, codes in DOMAIN_ERRORS.items():
        assert key in documented, f"DOMAIN_ERRORS names {key}, which the schema does not have"
        descriptions = " ".join(r.get("description", "") for r in documented[key]["responses"].values())
        for code in codes:
            assert f"`{code}`" in descriptions, (key, code)
    accept = documented["POST /api/sessions/{public_id}/accept"]["responses"]["409"]["description"]
    assert "`SESSION_ALREADY_ACCEPTED`" in accept


def test_the_oauth_token_endpoint_keeps_its_rfc_6749_errors(openapi):
    responses = openapi["paths"]["/api/owner/oauth/token"]["post"]["responses"]
    assert _envelope_of(responses["401"]) == "OAuthErrorOut"
    assert _envelope_of(responses["429"]) == "Error"


# --- Validation agrees with the schema ---------------------------------------------------


def test_an_empty_optional_filter_is_documented_as_absent_and_served_so(openapi, token_client):
    """DRF reads `?status=` (an HTML form's blank field) as no filter; the schema now says so,
    where it used to forbid it (minLength 1) while the server accepted it."""
    for path in ("/api/v1/orders", "/api/owner/orders"):
        query = {p["name"]: p for p in openapi["paths"][path]["get"]["parameters"]}
        for name in ("status", "business", "limit", "cursor"):
            assert query[name]["allowEmptyValue"] is True
            assert {"type": "string", "enum": [""]} in query[name]["schema"]["anyOf"]
    assert token_client.get("/api/v1/orders?status=").status_code == 200


def test_an_unknown_status_filter_is_422(token_client):
    response = token_client.get("/api/v1/orders?status=shipped")
    assert "status" in error_of(response, 422, "VALIDATION_ERROR")["details"]


def test_required_query_parameters_are_not_declared_empty(openapi):
    query = {p["name"]: p for p in openapi["paths"]["/api/video/token"]["get"]["parameters"]}
    assert "allowEmptyValue" not in query["channel"] and query["channel"]["schema"]["minLength"] == 1


@pytest.mark.parametrize("body", [{"location": 5}, {"name": 7}, {"location": True}, {"name": ["x"]}])
def test_a_number_where_the_schema_says_string_is_422_and_stores_nothing(owner, kiosk, settings, body):
    settings.REQUIRE_TLS = False
    key, secret = owner_api_services.owner_api_key_create(owner=owner, name="t", scopes=ALL_SCOPES, created_by=None)
    before = Kiosk.objects.values("name", "location").get(pk=kiosk.pk)
    response = OwnerApiClient(token_for(key, secret)).patch(f"/api/owner/kiosks/{kiosk.pk}", body)
    assert set(error_of(response, 422, "VALIDATION_ERROR")["details"]) == set(body)
    assert Kiosk.objects.values("name", "location").get(pk=kiosk.pk) == before


def test_a_string_location_is_still_stored(owner, kiosk, settings):
    settings.REQUIRE_TLS = False
    key, secret = owner_api_services.owner_api_key_create(owner=owner, name="t", scopes=ALL_SCOPES, created_by=None)
    response = OwnerApiClient(token_for(key, secret)).patch(f"/api/owner/kiosks/{kiosk.pk}", {"location": "Hall"})
    assert response.status_code == 200 and response.json()["data"]["location"] == "Hall"


def test_a_blank_video_channel_is_refused_as_the_schema_says(openapi, agent_client, kiosk_client):
    query = {p["name"]: p for p in openapi["paths"]["/api/video/token"]["get"]["parameters"]}
    assert query["channel"]["required"] and query["channel"]["schema"]["minLength"] == 1
    error_of(agent_client.get("/api/video/token?channel=&role=publisher"), 422, "VALIDATION_ERROR")
    error_of(kiosk_client.get("/api/public/video/token?channel="), 422, "VALIDATION_ERROR")
    refresh = agent_client.post("/api/video/token/refresh", {"channel": ""})
    assert "channel" in error_of(refresh, 422, "VALIDATION_ERROR")["details"]
