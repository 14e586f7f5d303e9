"""The OpenAPI document covers the owner API: every /api/owner/ path, the OAuth 2
client-credentials security scheme with its scopes, and each operation's one scope."""

import json

import pytest
from django.test import Client
from drf_spectacular.validation import validate_schema

OWNER_OPERATIONS = {
    ("/api/owner/kiosks/pairing-codes", "post"): "kiosks:write",
    ("/api/owner/kiosks", "get"): "kiosks:write",
    ("/api/owner/kiosks/{kiosk_id}", "patch"): "kiosks:write",
    ("/api/owner/kiosks/{kiosk_id}/unpair", "post"): "kiosks:write",
    ("/api/owner/kiosks/{kiosk_id}/reader", "put"): "kiosks:write",
    ("/api/owner/kiosks/{kiosk_id}/reader", "delete"): "kiosks:write",
    ("/api/owner/orders", "get"): "orders:read",
    ("/api/owner/orders/{order_id}/status", "post"): "orders:write",
    ("/api/owner/orders/{order_id}/refund", "post"): "refunds:write",
    ("/api/owner/menu/items/{item_id}", "patch"): "menu:write",
    ("/api/owner/reports/sessions", "get"): "reports:read",
    ("/api/owner/reports/items", "get"): "reports:read",
    ("/api/owner/businesses/{business_id}", "get"): "business:write",
    ("/api/owner/businesses/{business_id}", "patch"): "business:write",
    ("/api/owner/printers", "get"): "printers:write",
    ("/api/owner/printers", "post"): "printers:write",
    ("/api/owner/printers/{printer_id}", "get"): "printers:write",
    ("/api/owner/printers/{printer_id}", "patch"): "printers:write",
    ("/api/owner/printers/{printer_id}", "delete"): "printers:write",
    ("/api/owner/printers/{printer_id}/test-page", "post"): "printers:write",
    ("/api/owner/agents", "get"): "agents:write",
    ("/api/owner/agents/capacity", "get"): "agents:write",
    ("/api/owner/agents/capacity", "put"): "agents:write",
    ("/api/owner/agents/{agent_id}/capacity", "put"): "agents:write",
}


@pytest.fixture(scope="module")
def schema(django_db_setup, django_db_blocker) -> dict:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200, response.content[:500]
    return json.loads(response.content)


def test_the_document_stays_valid_openapi(schema):
    validate_schema(schema)


def test_the_oauth2_client_credentials_scheme_lists_every_scope(schema):
    scheme = schema["components"]["securitySchemes"]["ownerApiKey"]
    assert scheme["type"] == "oauth2"
    flow = scheme["flows"]["clientCredentials"]
    assert flow["tokenUrl"] == "/api/owner/oauth/token"
    assert set(flow["scopes"]) == {
        "kiosks:write",
        "orders:read",
        "orders:write",
        "refunds:write",
        "menu:write",
        "reports:read",
        "business:write",
        "printers:write",
        "agents:write",
    }


@pytest.mark.parametrize(("path", "method"), list(OWNER_OPERATIONS))
def test_each_owner_operation_is_documented_with_its_scope(schema, path, method):
    operation = schema["paths"][path][method]
    assert operation["security"] == [{"ownerApiKey": [OWNER_OPERATIONS[(path, method)]]}]


def test_the_token_endpoint_is_documented_as_a_form_post_without_auth(schema):
    operation = schema["paths"]["/api/owner/oauth/token"]["post"]
    assert "application/x-www-form-urlencoded" in operation["requestBody"]["content"]
    assert operation.get("security") in ([], [{}], None)
    assert operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/OwnerAccessToken")
    assert {"access_token", "token_type", "expires_in", "scope"} <= set(
        schema["components"]["schemas"]["OwnerAccessToken"]["properties"]
    )


def test_no_owner_path_is_a_catch_all(schema):
    owner_paths = [path for path in schema["paths"] if path.startswith("/api/owner/")]
    assert len(owner_paths) == 19
    assert not any(set(path) & set("^$*()\\") for path in owner_paths)
