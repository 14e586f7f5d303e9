"""POST /api/owner/oauth/token: the client-credentials grant with a real form body, client
authentication by HTTP Basic or form fields, hashed secrets, per-key scopes, short token life,
and revocation."""

from django.contrib.auth.hashers import check_password, identify_hasher
from django.test import Client
from oauth2_provider.models import AccessToken

from apps.owner_api import services
from tests import factories
from tests.owner_api.conftest import FORM, TOKEN_URL, auth, basic, request_token, token_for
from tests.support.auth import error_of, frozen_clock

PROBE = "/api/owner/kiosks"


def test_basic_auth_exchange_answers_a_bearer_token_with_the_keys_scopes(make_key):
    key, secret = make_key(["kiosks:write", "orders:read"])
    response = request_token(key.client_id, secret)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["token_type"] == "Bearer" and body["expires_in"] == 3600
    assert set(body["scope"].split()) == {"kiosks:write", "orders:read"}
    assert "refresh_token" not in body
    assert response["Cache-Control"] == "no-store"
    assert Client().get(PROBE, headers=auth(body["access_token"])).status_code == 200


def test_client_id_and_secret_may_travel_in_the_form_body(make_key):
    key, secret = make_key(["kiosks:write"])
    body = f"grant_type=client_credentials&client_id={key.client_id}&client_secret={secret}"
    response = Client().post(TOKEN_URL, body, content_type=FORM)
    assert response.status_code == 200, response.content
    assert Client().get(PROBE, headers=auth(response.json()["access_token"])).status_code == 200


def test_the_secret_is_stored_hashed_and_the_token_only_as_a_checksum(make_key):
    key, secret = make_key(["kiosks:write"])
    stored = key.application.client_secret
    assert stored != secret and identify_hasher(stored) and check_password(secret, stored)
    token_for(key, secret)
    access_token = AccessToken.objects.get(application=key.application)
    assert access_token.token == "" and len(access_token.token_checksum) == 64


def test_a_wrong_secret_or_unknown_client_is_invalid_client(make_key):
    key, secret = make_key(["kiosks:write"])
    wrong = request_token(key.client_id, secret[:-1] + ("A" if secret[-1] != "A" else "B"))
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    unknown = request_token("no-such-client", secret)
    assert unknown.status_code == 401 and unknown.json()["error"] == "invalid_client"
    assert not AccessToken.objects.exists()


def test_a_token_may_ask_for_fewer_scopes_but_never_more_than_its_key(make_key):
    key, secret = make_key(["kiosks:write", "orders:read"])
    narrow = request_token(key.client_id, secret, scope="orders:read")
    assert narrow.status_code == 200 and narrow.json()["scope"] == "orders:read"
    wider = request_token(key.client_id, secret, scope="orders:read refunds:write")
    assert wider.status_code == 400 and wider.json()["error"] == "invalid_scope"


def test_only_the_client_credentials_grant_is_served(make_key, owner):
    key, secret = make_key(["kiosks:write"])
    user = factories.PanelUserFactory(owner=owner)
    password = Client().post(
        TOKEN_URL,
        f"grant_type=password&username={user.email}&password={factories.PASSWORD}",
        content_type=FORM,
        headers=basic(key.client_id, secret),
    )
    assert password.status_code in (400, 401), password.content
    assert password.json()["error"] in ("invalid_grant", "unauthorized_client", "unsupported_grant_type")
    assert not AccessToken.objects.exists()
    error_of(Client().get(TOKEN_URL), 405, "METHOD_NOT_ALLOWED")


def test_tokens_expire_after_an_hour(make_key):
    key, secret = make_key(["kiosks:write"])
    with frozen_clock() as clock:
        token = token_for(key, secret)
        clock.advance(minutes=59)
        assert Client().get(PROBE, headers=auth(token)).status_code == 200
        clock.advance(minutes=1, seconds=1)
        expired = Client().get(PROBE, headers=auth(token))
        error_of(expired, 401, "UNAUTHENTICATED")
        assert "expired" in expired.json()["error"]["message"]
        assert 'error="invalid_token"' in expired["WWW-Authenticate"]
        # A new exchange gives a working token again.
        assert Client().get(PROBE, headers=auth(token_for(key, secret))).status_code == 200


def test_a_revoked_key_loses_its_tokens_and_cannot_get_new_ones(make_key):
    key, secret = make_key(["kiosks:write"])
    token = token_for(key, secret)
    services.owner_api_key_revoke(key=key)
    error_of(Client().get(PROBE, headers=auth(token)), 401, "UNAUTHENTICATED")
    refused = request_token(key.client_id, secret)
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_client"
    services.owner_api_key_revoke(key=key)  # a second revoke changes nothing
    key.refresh_from_db()
    assert key.revoked_at is not None


def test_token_requests_are_rate_limited_per_ip(make_key):
    key, secret = make_key(["kiosks:write"])
    with frozen_clock():
        for _ in range(30):
            request_token(key.client_id, "wrong")
        blocked = request_token(key.client_id, secret)
        error_of(blocked, 429, "RATE_LIMITED")
        assert int(blocked["Retry-After"]) >= 1
