"""Key management for the owner panel and the super-admin: owner_api_key_create validates and
returns the secret once (DOT keeps a hash), owner_api_key_revoke is final; the admin makes keys
through the service and revokes them with an action."""

import pytest
from django.contrib.auth.hashers import check_password
from oauth2_provider.models import Application

from apps.core.errors import DomainError
from apps.owner_api import services
from apps.owner_api.models import OwnerApiKey
from tests import factories
from tests.owner_api.conftest import OwnerApiClient, request_token, token_for


def test_create_returns_a_confidential_client_credentials_client_and_its_secret(owner):
    manager = factories.PanelUserFactory(owner=owner, panel_role="manager")
    key, secret = services.owner_api_key_create(
        owner=owner, name=" Till sync ", scopes=["orders:read", "orders:read", "menu:write"], created_by=manager
    )
    key.refresh_from_db()
    assert (key.name, key.scope_list, key.created_by, key.owner) == (
        "Till sync",
        ["orders:read", "menu:write"],
        manager,
        owner,
    )
    application = key.application
    assert application.client_type == Application.CLIENT_CONFIDENTIAL
    assert application.authorization_grant_type == Application.GRANT_CLIENT_CREDENTIALS
    assert application.user is None and len(secret) >= 64 and check_password(secret, application.client_secret)
    assert secret not in application.client_secret


@pytest.mark.parametrize(
    ("name", "scopes", "field"),
    [
        ("", ["orders:read"], "name"),
        ("x" * 201, ["orders:read"], "name"),
        ("ok", [], "scopes"),
        ("ok", ["admin"], "scopes"),
    ],
)
def test_create_refuses_bad_names_and_scopes(owner, name, scopes, field):
    with pytest.raises(DomainError) as refused:
        services.owner_api_key_create(owner=owner, name=name, scopes=scopes, created_by=None)
    assert refused.value.code == "VALIDATION_ERROR" and field in refused.value.details
    assert not OwnerApiKey.objects.exists() and not Application.objects.exists()


def test_another_owners_user_cannot_create_or_revoke_a_key(owner, other_business):
    stranger = factories.PanelUserFactory(owner=other_business.owner)
    with pytest.raises(DomainError) as create:
        services.owner_api_key_create(owner=owner, name="x", scopes=["orders:read"], created_by=stranger)
    assert create.value.code == "FORBIDDEN"
    key, _ = services.owner_api_key_create(owner=owner, name="x", scopes=["orders:read"], created_by=None)
    with pytest.raises(DomainError) as revoke:
        services.owner_api_key_revoke(key=key, revoked_by=stranger)
    assert revoke.value.code == "NOT_FOUND"
    key.refresh_from_db()
    assert key.revoked_at is None


def test_keys_of_one_owner_never_see_another_owners_data(make_key, other_owner, business, other_business):
    mine, my_secret = make_key(["kiosks:write"])
    theirs, their_secret = make_key(["kiosks:write"], of=other_owner)
    factories.KioskFactory(business=business, name="Mine")
    factories.KioskFactory(business=other_business, name="Theirs")
    assert [k["name"] for k in OwnerApiClient(token_for(mine, my_secret)).get("/api/owner/kiosks").json()["data"]] == [
        "Mine"
    ]
    assert [
        k["name"] for k in OwnerApiClient(token_for(theirs, their_secret)).get("/api/owner/kiosks").json()["data"]
    ] == ["Theirs"]


def test_the_admin_creates_a_key_through_the_service_and_shows_the_secret_once(admin_client, owner):
    response = admin_client.post(
        "/admin/owner_api/ownerapikey/add/",
        {"owner": owner.pk, "name": "From admin", "scope_choices": ["orders:read", "kiosks:write"]},
        follow=True,
    )
    assert response.status_code == 200
    key = OwnerApiKey.objects.get(name="From admin")
    [message] = [str(m) for m in response.context["messages"] if "client secret" in str(m)]
    secret = message.split("client secret ")[1].split(".")[0]
    assert check_password(secret, key.application.client_secret)
    assert request_token(key.client_id, secret).status_code == 200
    assert secret not in admin_client.get(f"/admin/owner_api/ownerapikey/{key.pk}/change/").content.decode()
    assert admin_client.get("/admin/owner_api/ownerapikey/", {"q": key.client_id}).status_code == 200


def test_the_admin_revoke_action_kills_the_keys_tokens(admin_client, make_key):
    key, secret = make_key(["kiosks:write"])
    client = OwnerApiClient(token_for(key, secret))
    response = admin_client.post(
        "/admin/owner_api/ownerapikey/", {"action": "revoke_keys", "_selected_action": [key.pk]}, follow=True
    )
    assert response.status_code == 200
    key.refresh_from_db()
    assert key.revoked_at is not None
    assert client.get("/api/owner/kiosks").status_code == 401
