"""Every panel view, refused the right way: anonymous -> the login page, agents -> 403, managers
-> 403 on billing, agents, webhooks and API keys, another owner's object -> 404, a POST without the CSRF
token -> 403."""

from types import SimpleNamespace

import pytest
from django.test import Client
from django.urls import reverse

from tests import factories
from tests.conftest import rows_for_the_module
from tests.panel.objects import tenant_objects

OWNER_ONLY = True
# (url name, the ids it takes, method, owner only)
ROUTES = [
    ("dashboard", [], "get", False),
    ("two_factor", [], "get", False),
    ("kiosks", [], "get", False),
    ("pairing_code_create", [], "post", False),
    ("kiosk_rename", ["kiosk_id"], "post", False),
    ("kiosk_unpair", ["kiosk_id"], "post", False),
    ("agents", [], "get", OWNER_ONLY),
    ("agent_disable", ["agent_id"], "post", OWNER_ONLY),
    ("agent_reset_2fa", ["agent_id"], "post", OWNER_ONLY),
    ("menu", [], "get", False),
    ("catalog", ["catalog_id"], "get", False),
    ("catalog_activate", ["catalog_id"], "post", False),
    ("category", ["category_id"], "post", False),
    ("menu_item_create", ["category_id"], "get", False),
    ("menu_item", ["item_id"], "get", False),
    ("modifier_group_create", ["item_id"], "post", False),
    ("modifier_group", ["item_id", "group_id"], "post", False),
    ("modifier_option_create", ["group_id"], "post", False),
    ("modifier_option", ["group_id", "option_id"], "post", False),
    ("orders", [], "get", False),
    ("order", ["order_id"], "get", False),
    ("order_move", ["order_id"], "post", False),
    ("order_refund", ["order_id"], "get", False),
    ("sessions", [], "get", False),
    ("printers", [], "get", False),
    ("printer", ["printer_id"], "get", False),
    ("printer_test_page", ["printer_id"], "post", False),
    ("printer_delete", ["printer_id"], "post", False),
    ("ticket_reprint", ["job_id"], "post", False),
    ("webhooks", [], "get", OWNER_ONLY),
    ("webhook", ["subscription_id"], "get", OWNER_ONLY),
    ("webhook_test", ["subscription_id"], "post", OWNER_ONLY),
    ("webhook_reenable", ["subscription_id"], "post", OWNER_ONLY),
    ("webhook_delete", ["subscription_id"], "post", OWNER_ONLY),
    ("delivery_resend", ["delivery_id"], "post", OWNER_ONLY),
    ("api_keys", [], "get", OWNER_ONLY),
    ("api_key_revoke", ["key_id"], "post", OWNER_ONLY),
    ("billing", [], "get", OWNER_ONLY),
    ("billing_onboarding", [], "post", OWNER_ONLY),
    ("settings", [], "get", False),
]
ROUTE_IDS = [route[0] for route in ROUTES]
WITH_OBJECTS = [route for route in ROUTES if route[1]]


@pytest.fixture(scope="module")
def tenants(django_db_setup, django_db_blocker, _menu_photo_folder) -> SimpleNamespace:
    """Two tenants with one object of every kind, and the owner's panel users and agent: made once
    for the module's couple of hundred requests, each test in a savepoint inside (tests/conftest.py,
    rows_for_the_module)."""
    with rows_for_the_module(django_db_blocker, _menu_photo_folder):
        business, other_business = factories.BusinessFactory(), factories.BusinessFactory()
        yield SimpleNamespace(
            business=business,
            other_business=other_business,
            mine=tenant_objects(business),
            theirs=tenant_objects(other_business),
            agent=factories.AgentFactory(owner=business.owner),
            panel_owner=factories.PanelUserFactory(owner=business.owner, panel_role="owner", name="Olivia Owner"),
            panel_manager=factories.PanelUserFactory(owner=business.owner, panel_role="manager", name="Max Manager"),
        )


# The shared fixtures (tests/conftest.py, tests/panel/conftest.py), answered from the module's rows.
@pytest.fixture
def business(db, tenants):
    return tenants.business


@pytest.fixture
def other_business(db, tenants):
    return tenants.other_business


@pytest.fixture
def agent(db, tenants):
    return tenants.agent


@pytest.fixture
def panel_owner(db, tenants):
    return tenants.panel_owner


@pytest.fixture
def panel_manager(db, tenants):
    return tenants.panel_manager


@pytest.fixture
def mine(db, tenants):
    return tenants.mine


@pytest.fixture
def theirs(db, tenants):
    return tenants.theirs


def url_for(route, objects) -> str:
    name, id_names, _, _ = route
    ids = objects.ids() if objects else {}
    return reverse(f"panel:{name}", kwargs={key: ids[key] for key in id_names})


def call(client, route, objects):
    method = route[2]
    return getattr(client, method)(url_for(route, objects))


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_anonymous_is_sent_to_the_login_page(route, mine):
    response = call(Client(), route, mine)
    assert response.status_code == 302
    assert response["Location"].startswith("/panel/login?next=")


@pytest.mark.parametrize("route", ROUTES, ids=ROUTE_IDS)
def test_an_agent_is_refused(route, mine, agent):
    client = Client()
    client.force_login(agent)
    response = call(client, route, mine)
    assert response.status_code == 403
    assert b"agent dashboard" in response.content


@pytest.mark.parametrize("route", [r for r in ROUTES if r[3]], ids=[r[0] for r in ROUTES if r[3]])
def test_a_manager_is_refused_owner_only_pages(route, mine, manager_client):
    response = call(manager_client, route, mine)
    assert response.status_code == 403
    assert b"Only the account owner" in response.content


@pytest.mark.parametrize("route", [r for r in ROUTES if r[2] == "get"], ids=[r[0] for r in ROUTES if r[2] == "get"])
def test_the_owner_opens_every_page(route, mine, owner_client):
    response = call(owner_client, route, mine)
    assert response.status_code == 200


@pytest.mark.parametrize(
    "route", [r for r in ROUTES if r[2] == "get" and not r[3]], ids=[r[0] for r in ROUTES if r[2] == "get" and not r[3]]
)
def test_a_manager_opens_every_shared_page(route, mine, manager_client):
    assert call(manager_client, route, mine).status_code == 200


@pytest.mark.parametrize("route", WITH_OBJECTS, ids=[route[0] for route in WITH_OBJECTS])
def test_another_owners_object_is_not_found(route, mine, theirs, owner_client):
    response = call(owner_client, route, theirs)
    assert response.status_code == 404


@pytest.mark.parametrize("route", [r for r in ROUTES if r[2] == "post"], ids=[r[0] for r in ROUTES if r[2] == "post"])
def test_a_post_without_the_csrf_token_is_refused(route, mine, panel_owner):
    client = Client(enforce_csrf_checks=True)
    client.force_login(panel_owner)
    response = call(client, route, mine)
    assert response.status_code == 403
    assert b"CSRF" in response.content


def test_a_staff_user_without_a_panel_role_is_refused(db):
    staff = factories.UserFactory(is_staff=True)
    client = Client()
    client.force_login(staff)
    response = client.get("/panel/")
    assert response.status_code == 403


def test_panel_without_slash_redirects(db):
    response = Client().get("/panel")
    assert response.status_code == 301 and response["Location"] == "/panel/"
