"""Owner API access rules: each route needs its one scope (403 INSUFFICIENT_SCOPE otherwise,
with an RFC 6750 challenge), a missing, unknown, expired or revoked token is 401, other
surfaces' credentials do not work here (nor ours there), the rate limit is per key, TLS."""

import pytest
from django.test import Client

from apps.accounts import services as account_services
from apps.owner_api import services
from apps.owner_api.scopes import ALL_SCOPES
from tests import factories
from tests.conftest import kiosk_client_for
from tests.owner_api.conftest import FORM, TOKEN_URL, OwnerApiClient, auth, token_for
from tests.support.auth import error_of, frozen_clock

# (method, path, body, the scope it needs). Ids that do not exist (no test makes that many rows):
# the scope is checked first.
NO_SUCH_ID = 999_999_999
ROUTES = [
    ("post", "/api/owner/kiosks/pairing-codes", {}, "kiosks:write"),
    ("get", "/api/owner/kiosks", None, "kiosks:write"),
    ("patch", f"/api/owner/kiosks/{NO_SUCH_ID}", {"name": "x"}, "kiosks:write"),
    ("post", f"/api/owner/kiosks/{NO_SUCH_ID}/unpair", None, "kiosks:write"),
    ("get", "/api/owner/orders", None, "orders:read"),
    ("post", f"/api/owner/orders/{NO_SUCH_ID}/status", {"status": "ready"}, "orders:write"),
    ("post", f"/api/owner/orders/{NO_SUCH_ID}/refund", {}, "refunds:write"),
    ("patch", f"/api/owner/menu/items/{NO_SUCH_ID}", {"stock": 1}, "menu:write"),
    ("get", "/api/owner/printers", None, "printers:write"),
    ("post", "/api/owner/printers", {"business_id": NO_SUCH_ID, "name": "x", "host": "h"}, "printers:write"),
    ("get", f"/api/owner/printers/{NO_SUCH_ID}", None, "printers:write"),
    ("patch", f"/api/owner/printers/{NO_SUCH_ID}", {"name": "x"}, "printers:write"),
    ("delete", f"/api/owner/printers/{NO_SUCH_ID}", None, "printers:write"),
    ("post", f"/api/owner/printers/{NO_SUCH_ID}/test-page", None, "printers:write"),
    ("get", "/api/owner/agents", None, "agents:write"),
    ("get", "/api/owner/agents/capacity", None, "agents:write"),
    ("put", "/api/owner/agents/capacity", {"agent_capacity": 2}, "agents:write"),
    ("put", f"/api/owner/agents/{NO_SUCH_ID}/capacity", {"capacity": 2}, "agents:write"),
]


def call(client, method: str, path: str, body):
    if method == "get":
        return client.get(path)
    return getattr(client, method)(path, body or {}, content_type="application/json")


@pytest.mark.parametrize(("method", "path", "body", "scope"), ROUTES)
def test_every_route_refuses_a_token_without_its_scope(client_with, method, path, body, scope):
    others = [s for s in ALL_SCOPES if s != scope]
    response = call(client_with(*others), method, path, body)
    error = error_of(response, 403, "INSUFFICIENT_SCOPE")
    assert error["details"] == {"required_scope": scope} and scope in error["message"]
    assert f'error="insufficient_scope", scope="{scope}"' in response["WWW-Authenticate"]


# What each route answers once its scope lets the call through: the ids above do not exist, so
# routes on one object answer 404 NOT_FOUND (exact, so a 500 cannot pass for "not refused").
ANSWER_WITH_SCOPE = {
    ("post", "/api/owner/kiosks/pairing-codes"): 201,
    ("get", "/api/owner/kiosks"): 200,
    ("get", "/api/owner/orders"): 200,
    ("get", "/api/owner/printers"): 200,
    ("get", "/api/owner/agents"): 200,
    ("get", "/api/owner/agents/capacity"): 200,
    ("put", "/api/owner/agents/capacity"): 200,
}


@pytest.mark.parametrize(("method", "path", "body", "scope"), ROUTES)
def test_every_route_lets_its_scope_through(client_with, method, path, body, scope):
    response = call(client_with(scope), method, path, body)
    if (method, path) in ANSWER_WITH_SCOPE:
        assert response.status_code == ANSWER_WITH_SCOPE[(method, path)], response.content
    else:
        error_of(response, 404, "NOT_FOUND")


def test_a_token_narrower_than_its_key_is_held_to_its_own_scopes(make_key):
    key, secret = make_key(["kiosks:write", "orders:read"])
    narrow = OwnerApiClient(token_for(key, secret, scope="orders:read"))
    assert narrow.get("/api/owner/orders").status_code == 200
    error_of(narrow.get("/api/owner/kiosks"), 403, "INSUFFICIENT_SCOPE")


@pytest.mark.parametrize(("method", "path", "body", "scope"), ROUTES)
def test_every_route_needs_a_token(db, method, path, body, scope):
    response = call(Client(), method, path, body)
    error_of(response, 401, "UNAUTHENTICATED")
    assert response["WWW-Authenticate"] == 'Bearer realm="owner-api"'
    unknown = call(Client(headers=auth("not-a-token")), method, path, body)
    error_of(unknown, 401, "UNAUTHENTICATED")
    assert 'error="invalid_token"' in unknown["WWW-Authenticate"]


def test_the_token_is_refused_in_the_query_string(make_key):
    key, secret = make_key(["kiosks:write"])
    error_of(Client().get(f"/api/owner/kiosks?access_token={token_for(key, secret)}"), 401, "UNAUTHENTICATED")


def test_a_revoked_key_is_refused_everywhere_at_once(make_key):
    key, secret = make_key()
    client = OwnerApiClient(token_for(key, secret))
    assert client.get("/api/owner/kiosks").status_code == 200
    services.owner_api_key_revoke(key=key)
    for method, path, body, _scope in ROUTES:
        error_of(call(client, method, path, body), 401, "UNAUTHENTICATED")


def test_other_surfaces_credentials_do_not_open_the_owner_api_nor_the_reverse(api, agent, kiosk, make_key):
    _, personal_token = account_services.access_token_issue(user=agent)
    assert Client().get("/api/v1/orders", headers=auth(personal_token)).status_code == 200
    error_of(Client().get("/api/owner/orders", headers=auth(personal_token)), 401, "UNAUTHENTICATED")
    error_of(kiosk_client_for(kiosk).get("/api/owner/kiosks"), 401, "UNAUTHENTICATED")
    key, secret = make_key()
    owner_token = token_for(key, secret)
    error_of(Client().get("/api/v1/orders", headers=auth(owner_token)), 401, "UNAUTHENTICATED")


def test_unknown_owner_routes_answer_the_envelope(api):
    error_of(api.get("/api/owner/nothing-here"), 404, "NOT_FOUND")
    error_of(api.delete("/api/owner/kiosks"), 405, "METHOD_NOT_ALLOWED")


def test_the_rate_limit_is_120_a_minute_per_key(make_key, owner):
    key, secret = make_key(["kiosks:write"])
    first, second = OwnerApiClient(token_for(key, secret)), OwnerApiClient(token_for(key, secret))
    other_key, other_secret = make_key(["kiosks:write"], of=owner)
    with frozen_clock() as clock:
        for n in range(120):
            assert (first if n % 2 else second).get("/api/owner/kiosks").status_code == 200, n
        blocked = second.get("/api/owner/kiosks")
        error_of(blocked, 429, "RATE_LIMITED")
        assert 1 <= int(blocked["Retry-After"]) <= 60
        # Another key of the same owner has its own bucket.
        assert OwnerApiClient(token_for(other_key, other_secret)).get("/api/owner/kiosks").status_code == 200
        clock.advance(seconds=61)
        assert first.get("/api/owner/kiosks").status_code == 200


def test_plain_http_is_refused_when_tls_is_required(make_key, settings):
    key, secret = make_key(["kiosks:write"])
    token = token_for(key, secret)
    settings.REQUIRE_TLS = True
    error_of(Client().get("/api/owner/kiosks", headers=auth(token)), 403, "TLS_REQUIRED")
    error_of(Client().post(TOKEN_URL, "grant_type=client_credentials", content_type=FORM), 403, "TLS_REQUIRED")
    assert Client().get("/api/owner/kiosks", headers=auth(token), secure=True).status_code == 200


def test_a_key_belongs_to_its_owner_only(make_key, other_business, business):
    factories.KioskFactory(business=other_business)
    mine = factories.KioskFactory(business=business)
    key, secret = make_key(["kiosks:write"])
    rows = OwnerApiClient(token_for(key, secret)).get("/api/owner/kiosks").json()["data"]
    assert [row["id"] for row in rows] == [mine.pk]


def test_a_body_the_parsers_refuse_is_a_4xx_even_before_authentication(api):
    """Found by schemathesis: the token check must not parse the body (a multipart body without a
    boundary once raised a 500 there)."""
    response = api.post("/api/owner/kiosks/pairing-codes", "x", content_type="multipart/form-data")
    error_of(response, 415, "UNSUPPORTED_MEDIA_TYPE")
    error_of(
        Client().post("/api/owner/kiosks/pairing-codes", "x", content_type="multipart/form-data"),
        401,
        "UNAUTHENTICATED",
    )
