"""The API keys page (/panel/api-keys): owner only, the client secret shown on one page and working
at the real token endpoint, service validation errors on the form, revocation that stops the
token exchange at once."""

import pytest
from django.contrib.auth.hashers import check_password
from django.test import Client

from apps.core.errors import DomainError, ErrorCode
from apps.owner_api import services as key_services
from apps.owner_api.models import OwnerApiKey
from apps.owner_api.scopes import ALL_SCOPES
from tests.owner_api.conftest import auth, request_token

PAGE = "/panel/api-keys"


def revoke_url(key) -> str:
    return f"{PAGE}/{key.pk}/revoke"


def messages_of(response) -> str:
    return " ".join(str(message) for message in response.context["messages"])


@pytest.fixture
def their_key(other_business):
    key, _ = key_services.owner_api_key_create(
        owner=other_business.owner, name="theirs", scopes=["orders:read"], created_by=None
    )
    return key


@pytest.fixture
def my_key(owner):
    return key_services.owner_api_key_create(owner=owner, name="till", scopes=["kiosks:write"], created_by=None)


# --- who may use the page ----------------------------------------------------------------------


def test_anonymous_is_sent_to_the_login_page(db, my_key):
    key, _ = my_key
    for response in (Client().get(PAGE), Client().post(PAGE, {"name": "x"}), Client().post(revoke_url(key))):
        assert response.status_code == 302
        assert response["Location"].startswith("/panel/login?next=")
    assert OwnerApiKey.objects.count() == 1


def assert_every_call_refused(client, key, explanation: bytes) -> None:
    """Listing, creating and revoking all answer the 403 page, and the key is untouched."""
    for response in (
        client.get(PAGE),
        client.post(PAGE, {"name": "x", "scopes": ["orders:read"]}),
        client.post(revoke_url(key)),
    ):
        assert response.status_code == 403
        assert explanation in response.content
    assert OwnerApiKey.objects.count() == 1 and OwnerApiKey.objects.get().is_active


def test_an_agent_is_refused(agent, my_key):
    key, _ = my_key
    client = Client()
    client.force_login(agent)
    assert_every_call_refused(client, key, b"agent dashboard")


def test_a_manager_gets_the_403_page_and_no_link(manager_client, my_key):
    key, _ = my_key
    assert_every_call_refused(manager_client, key, b"Only the account owner")
    assert PAGE.encode() not in manager_client.get("/panel/").content


def test_the_owner_sees_the_link_next_to_webhooks(owner_client):
    nav = owner_client.get("/panel/").context["nav"]
    names = [name for name, _ in nav]
    assert names[names.index("webhooks") + 1] == "api_keys"
    assert b'href="/panel/api-keys"' in owner_client.get("/panel/").content


def test_another_owners_key_is_not_found_and_stays_active(owner_client, their_key):
    response = owner_client.post(revoke_url(their_key))
    assert response.status_code == 404
    their_key.refresh_from_db()
    assert their_key.is_active
    assert b"theirs" not in owner_client.get(PAGE).content


def test_the_list_shows_only_the_owners_keys(owner_client, my_key, their_key):
    keys = list(owner_client.get(PAGE).context["keys"])
    assert keys == [my_key[0]]


def test_a_post_without_the_csrf_token_is_refused(panel_owner, my_key):
    key, _ = my_key
    client = Client(enforce_csrf_checks=True)
    client.force_login(panel_owner)
    created = client.post(PAGE, {"name": "x", "scopes": ["orders:read"]})
    revoked = client.post(revoke_url(key))
    assert created.status_code == 403 and b"CSRF" in created.content
    assert revoked.status_code == 403 and b"CSRF" in revoked.content
    assert OwnerApiKey.objects.count() == 1 and OwnerApiKey.objects.get().is_active


def test_revoke_answers_only_post(owner_client, my_key):
    key, _ = my_key
    assert owner_client.get(revoke_url(key)).status_code == 405
    key.refresh_from_db()
    assert key.is_active


# --- creating a key ----------------------------------------------------------------------------


def test_create_shows_the_secret_once_and_it_works_at_the_token_endpoint(owner_client, panel_owner):
    response = owner_client.post(PAGE, {"name": "Till integration", "scopes": ["orders:read", "kiosks:write"]})
    assert response.status_code == 302 and response["Location"] == PAGE  # no resubmission on reload
    assert "panel-once:api-key-secret" in owner_client.session  # kept for the next page only
    key = OwnerApiKey.objects.get()
    assert key.owner_id == panel_owner.owner_id and key.created_by == panel_owner
    assert key.name == "Till integration" and key.scope_list == ["orders:read", "kiosks:write"]

    shown = owner_client.get(PAGE)
    new_key = shown.context["new_key"]
    secret = new_key["secret"]
    assert new_key["client_id"] == key.client_id
    html = shown.content.decode()
    assert secret in html and key.client_id in html
    assert 'data-copy="#api-key-secret"' in html
    assert "http://testserver/api/owner/oauth/token" in html and "client_credentials" in html
    assert check_password(secret, key.application.client_secret)  # stored hashed, never in plaintext
    assert key.application.client_secret != secret

    exchanged = request_token(key.client_id, secret)  # form body, HTTP Basic
    assert exchanged.status_code == 200, exchanged.content
    assert set(exchanged.json()["scope"].split()) == {"orders:read", "kiosks:write"}
    token = exchanged.json()["access_token"]
    assert Client().get("/api/owner/kiosks", headers=auth(token)).status_code == 200

    again = owner_client.get(PAGE)
    assert again.context["new_key"] is None
    page = again.content.decode()
    assert secret not in page
    assert key.client_id in page and "Till integration" in page and "Olivia Owner" in page
    assert "panel-once:api-key-secret" not in owner_client.session


def test_the_scope_choices_carry_an_explanation(owner_client):
    html = owner_client.get(PAGE).content.decode()
    for scope, explanation in ALL_SCOPES.items():
        assert f'value="{scope}"' in html
        assert explanation.replace("'", "&#x27;") in html


def test_no_scope_is_the_services_error_on_the_scopes_field(owner_client):
    response = owner_client.post(PAGE, {"name": "Till"})
    assert response.status_code == 200
    assert response.context["form"].errors["scopes"] == ["Choose at least one scope."]
    assert "Choose at least one scope." in response.content.decode()
    assert not OwnerApiKey.objects.exists()


def test_no_name_is_the_services_error_on_the_name_field(owner_client):
    response = owner_client.post(PAGE, {"name": "   ", "scopes": ["orders:read"]})
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == ["Give the key a name."]
    assert not OwnerApiKey.objects.exists()


def test_a_name_too_long_is_refused_by_the_service(owner_client):
    response = owner_client.post(PAGE, {"name": "n" * 201, "scopes": ["orders:read"]})
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == ["Use 200 characters at most."]
    assert not OwnerApiKey.objects.exists()


def test_an_unknown_scope_is_a_form_error_not_a_500(owner_client):
    response = owner_client.post(PAGE, {"name": "Till", "scopes": ["orders:read", "everything:write"]})
    assert response.status_code == 200
    assert response.context["form"].errors["scopes"]
    assert not OwnerApiKey.objects.exists()


def test_a_service_error_without_field_details_is_shown_above_the_form(owner_client, monkeypatch):
    def refuse(**kwargs):
        raise DomainError(ErrorCode.FORBIDDEN, "Only the owner's own users can create its API keys.")

    monkeypatch.setattr(key_services, "owner_api_key_create", refuse)
    response = owner_client.post(PAGE, {"name": "Till", "scopes": ["orders:read"]})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == ["Only the owner's own users can create its API keys."]


# --- revoking a key ----------------------------------------------------------------------------


def test_revoke_stops_the_token_exchange_and_the_live_tokens(owner_client, panel_owner, my_key):
    key, secret = my_key
    token = request_token(key.client_id, secret).json()["access_token"]
    assert Client().get("/api/owner/kiosks", headers=auth(token)).status_code == 200

    page = owner_client.get(PAGE).content.decode()
    assert f'action="{revoke_url(key)}"' in page and "data-confirm=" in page

    response = owner_client.post(revoke_url(key), follow=True)
    assert response.redirect_chain == [(PAGE, 302)]
    assert "revoked" in messages_of(response)
    key.refresh_from_db()
    assert key.revoked_at is not None

    refused = request_token(key.client_id, secret)
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_client"
    assert Client().get("/api/owner/kiosks", headers=auth(token)).status_code == 401

    row = response.content.decode().split(f'data-key-id="{key.pk}"', 1)[1].split("</tr>", 1)[0]
    assert "revoked" in row and "Revoke</button>" not in row


def test_revoking_twice_says_so(owner_client, my_key):
    key, _ = my_key
    owner_client.post(revoke_url(key))
    revoked_at = OwnerApiKey.objects.get().revoked_at
    again = owner_client.post(revoke_url(key), follow=True)
    assert again.status_code == 200 and "already revoked" in messages_of(again)
    assert OwnerApiKey.objects.get().revoked_at == revoked_at
