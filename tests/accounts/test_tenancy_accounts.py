"""The super-admin at /admin/: every model of our apps is reachable there (registered, or edited
inline on its parent), every registered model's changelist, search and change page answer 200 for a
superuser with demo data in place, and nobody else gets in."""

import io

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from apps.accounts import services as account_services
from apps.accounts.models import User
from apps.webhooks import services as webhook_services
from tests import factories
from tests.conftest import AgentClient, rows_for_the_module
from tests.support.auth import enrol_totp


def _our_models():
    return sorted(
        (model for model in apps.get_models() if model.__module__.startswith("apps.")), key=lambda m: m._meta.label
    )


def _reachable_in_admin(model) -> bool:
    if model in admin.site._registry:
        return True
    return any(inline.model is model for model_admin in admin.site._registry.values() for inline in model_admin.inlines)


@pytest.mark.parametrize("model", [pytest.param(m, id=m._meta.label) for m in _our_models()])
def test_every_model_of_our_apps_is_in_the_admin(model):
    assert _reachable_in_admin(model), f"{model._meta.label} is neither registered nor an inline"


@pytest.fixture(scope="module")
def demo_rows(django_db_setup, django_db_blocker, _menu_photo_folder):
    """Demo tenants plus a row in the tables seed_demo leaves empty, so list columns render. Made
    once for the module (seed_demo takes most of a second), rolled back after its last test
    (tests/conftest.py, rows_for_the_module)."""
    with rows_for_the_module(django_db_blocker, _menu_photo_folder):
        call_command("seed_demo", "--json", stdout=io.StringIO())
        agent = User.objects.filter(is_agent=True, owner__isnull=False).first()
        enrol_totp(agent)
        client = AgentClient()
        client.sign_in(agent.email, "demo-password-1")  # leaves a 2FA challenge
        session = factories.SessionFactory(kiosk=agent.owner.businesses.first().kiosks.first())
        factories.SessionFactory(kiosk=factories.KioskFactory())
        webhook_services.subscription_create(
            owner=agent.owner, url="https://hooks.example.test/in", events=["session.ended"]
        )
        account_services.access_token_issue(user=agent)
        yield {"agent": agent, "session": session}


@pytest.fixture
def demo(db, demo_rows):
    return demo_rows


def _admin_url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.mark.parametrize("model", [pytest.param(m, id=m._meta.label) for m in admin.site._registry])
def test_superuser_sees_each_registered_models_changelist_search_and_change_page(demo, admin_client, model):
    model_admin = admin.site._registry[model]
    changelist = _admin_url(model, "changelist")

    response = admin_client.get(changelist)
    assert response.status_code == 200, (model._meta.label, response.status_code)

    if model_admin.search_fields:
        searched = admin_client.get(changelist, {"q": "demo"})
        assert searched.status_code == 200, model._meta.label

    first = model._default_manager.order_by("pk").first()
    if first is not None:
        change = admin_client.get(_admin_url(model, "change", first.pk))
        assert change.status_code == 200, (model._meta.label, change.status_code)


def test_the_admin_index_lists_the_registered_models(demo, admin_client):
    response = admin_client.get("/admin/")
    assert response.status_code == 200
    body = response.content.decode()
    for model in admin.site._registry:
        assert _admin_url(model, "changelist") in body, model._meta.label


def test_user_search_finds_by_email_and_owner_name(demo, admin_client):
    agent = demo["agent"]
    other = User.objects.filter(is_agent=True).exclude(owner=agent.owner).first()
    by_email = admin_client.get("/admin/accounts/user/", {"q": agent.email}).content.decode()
    assert agent.email in by_email and other.email not in by_email
    by_owner = admin_client.get("/admin/accounts/user/", {"q": agent.owner.name}).content.decode()
    assert agent.email in by_owner and other.email not in by_owner


def test_user_list_filters_by_agent_status(demo, admin_client):
    response = admin_client.get("/admin/accounts/user/", {"is_agent__exact": "1", "agent_status__exact": "available"})
    assert response.status_code == 200
    assert demo["agent"].email in response.content.decode()


# --- Who may enter -----------------------------------------------------------------------


def test_anonymous_visitors_are_redirected_to_the_admin_login(db):
    for path in ("/admin/", "/admin/accounts/user/"):
        response = Client().get(path)
        assert response.status_code == 302
        assert response["Location"].startswith("/admin/login/")


@pytest.mark.parametrize("factory", [factories.AgentFactory, factories.PanelUserFactory], ids=["agent", "panel-owner"])
def test_non_staff_users_are_redirected_to_the_admin_login(db, factory):
    client = Client()
    client.force_login(factory())
    for path in ("/admin/", "/admin/accounts/user/", "/admin/kiosks/kiosk/"):
        response = client.get(path)
        assert response.status_code == 302, path
        assert response["Location"].startswith("/admin/login/")


def test_an_agent_cannot_sign_in_to_the_admin_with_its_password(db):
    agent = factories.AgentFactory()
    client = Client()
    response = client.post(
        "/admin/login/", {"username": agent.email, "password": factories.PASSWORD, "next": "/admin/"}
    )
    assert response.status_code == 200  # the form again, with an error
    assert client.get("/admin/").status_code == 302


def test_staff_without_permissions_cannot_open_changelists(db):
    staff = factories.UserFactory(email="staff@example.test", name="Staff", is_staff=True)
    client = Client()
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/accounts/user/").status_code == 403
