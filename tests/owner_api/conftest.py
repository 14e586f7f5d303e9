"""Owner API fixtures: keys made by the real service, tokens fetched from the real token
endpoint with a form-encoded POST and HTTP Basic client authentication, as an integration would."""

import base64

import pytest
from django.test import Client

from apps.owner_api import services
from apps.owner_api.scopes import ALL_SCOPES
from tests import factories

TOKEN_URL = "/api/owner/oauth/token"
FORM = "application/x-www-form-urlencoded"


def basic(client_id: str, secret: str) -> dict:
    raw = base64.b64encode(f"{client_id}:{secret}".encode()).decode()
    return {"Authorization": f"Basic {raw}"}


def request_token(client_id: str, secret: str, *, scope: str | None = None, headers: dict | None = None):
    """POST the client-credentials grant as a form body, credentials in HTTP Basic."""
    body = "grant_type=client_credentials" + (f"&scope={scope.replace(' ', '+')}" if scope else "")
    return Client().post(TOKEN_URL, body, content_type=FORM, headers=headers or basic(client_id, secret))


def token_for(key, secret: str, *, scope: str | None = None) -> str:
    response = request_token(key.client_id, secret, scope=scope)
    assert response.status_code == 200, response.content
    return response.json()["access_token"]


def auth(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


class OwnerApiClient(Client):
    """A test client that sends the bearer token and JSON bodies."""

    def __init__(self, token: str):
        super().__init__(headers=auth(token))

    def post(self, path, data=None, content_type="application/json", **extra):
        return super().post(path, data, content_type=content_type, **extra)

    def patch(self, path, data=None, content_type="application/json", **extra):
        return super().patch(path, data, content_type=content_type, **extra)


@pytest.fixture
def make_key(owner):
    """make_key(scopes=[...], owner=...) -> (key, client_secret)"""

    def make(scopes=tuple(ALL_SCOPES), *, of=None, name="integration"):
        return services.owner_api_key_create(owner=of or owner, name=name, scopes=list(scopes), created_by=None)

    return make


@pytest.fixture
def client_with(make_key):
    """client_with("orders:read", ...) -> an OwnerApiClient whose token has exactly those scopes."""

    def make(*scopes, of=None):
        key, secret = make_key(scopes or tuple(ALL_SCOPES), of=of)
        return OwnerApiClient(token_for(key, secret))

    return make


@pytest.fixture
def api(client_with):
    """A client whose key and token hold every scope."""
    return client_with()


@pytest.fixture
def other_owner(other_business):
    return other_business.owner


@pytest.fixture
def stranger_kiosk(other_business):
    return factories.KioskFactory(business=other_business)


@pytest.fixture
def stranger_order(other_business):
    """A confirmed order of another owner."""
    session = factories.SessionFactory(kiosk=factories.KioskFactory(business=other_business))
    return factories.OrderFactory(session=session, number="1", status="confirmed", currency="USD", total_cents=500)
