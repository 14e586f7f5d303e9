"""Who opens the screens: the panel's Displays page makes a link holding a token (shown once,
stored hashed) and revokes it; a signed-in owner, manager or kitchen user opens the screens with
its session (CSRF on writes), a kitchen user sees no other panel page, and another owner's
business or display is a 404."""

import hashlib
import re

import pytest
from django.test import Client

from apps.displays.models import DisplayToken
from apps.orders.models import OrderStatus
from tests import factories
from tests.support.auth import error_of
from tests.support.displays import display_client
from tests.support.orders import BASE, make_order

PAGE = "/panel/displays"


@pytest.fixture
def kitchen_user(owner):
    return factories.PanelUserFactory(owner=owner, panel_role="kitchen", name="Kim Kitchen")


def signed_in(user, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def test_the_owner_creates_a_display_link_shown_once_and_revokes_it(business, owner):
    owner_user = factories.PanelUserFactory(owner=owner, panel_role="manager")
    panel = signed_in(owner_user)
    created = panel.post(
        PAGE, {"business": business.pk, "kind": "board", "name": "Counter", "ready_minutes": 5}, follow=True
    )
    assert created.status_code == 200
    link = re.search(r'id="display-link">([^<]+)<', created.content.decode()).group(1)
    assert link.startswith("http://testserver/board/#token=")
    raw = link.split("#token=")[1]
    token = DisplayToken.objects.get()
    assert (token.kind, token.name, token.ready_seconds, token.business_id) == ("board", "Counter", 300, business.pk)
    assert token.token_hash == hashlib.sha256(raw.encode()).hexdigest()
    again = panel.get(PAGE).content.decode()
    assert raw not in again and "Counter" in again  # the link is shown once

    screen = display_client(raw)
    assert screen.get("/api/displays/board").status_code == 200
    assert panel.post(f"{PAGE}/{token.pk}/revoke").status_code == 302
    error_of(screen.get("/api/displays/board"), 401, "UNAUTHENTICATED")


def test_bad_input_on_the_page_is_said_on_the_form(business, owner, other_business):
    panel = signed_in(factories.PanelUserFactory(owner=owner))
    refused = panel.post(PAGE, {"business": other_business.pk, "kind": "oven", "name": "", "ready_minutes": 0})
    assert refused.status_code == 200
    form = refused.context["form"]
    assert set(form.errors) == {"business", "kind", "name", "ready_minutes"}
    assert DisplayToken.objects.count() == 0


def test_another_owners_display_cannot_be_revoked(business, other_business, owner):
    from apps.displays import services

    theirs, _ = services.display_token_create(
        business=other_business, kind="kitchen", name="Theirs", ready_seconds=600, created_by=None
    )
    panel = signed_in(factories.PanelUserFactory(owner=owner))
    assert panel.post(f"{PAGE}/{theirs.pk}/revoke").status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked_at is None


def test_a_kitchen_user_opens_the_kitchen_but_not_the_panel(business, kitchen_user):
    order = make_order(business, created_at=BASE, status=OrderStatus.CONFIRMED)
    screen = signed_in(kitchen_user, csrf=True)
    me = screen.get("/api/displays/me").json()
    assert me["screens"] == ["board", "kitchen"]
    assert me["channels"] == {"board": f"private-board.{business.pk}", "kitchen": f"private-kitchen.{business.pk}"}
    assert [t["id"] for t in screen.get("/api/displays/kitchen/tickets").json()["tickets"]] == [str(order.pk)]

    url = f"/api/displays/kitchen/tickets/{order.pk}/status"
    refused = screen.post(url, {"status": "preparing"}, content_type="application/json")
    assert refused.status_code == 403  # no CSRF token: Django's check refuses the write
    page = screen.get("/kitchen/")
    assert page.status_code == 200 and "csrftoken" in page.cookies
    csrf = page.cookies["csrftoken"].value
    moved = screen.post(url, {"status": "preparing"}, content_type="application/json", headers={"X-CSRFToken": csrf})
    assert moved.status_code == 200, moved.content
    assert moved.json()["status"] == "preparing"

    dashboard = screen.get("/panel/")
    assert (dashboard.status_code, dashboard["Location"]) == (302, "/kitchen/")
    assert screen.get(PAGE).status_code == 302


def test_a_signed_in_user_names_one_of_its_owners_businesses(business, owner, other_business):
    second = factories.BusinessFactory(owner=owner, name="Second")
    order = make_order(second, created_at=BASE, status=OrderStatus.CONFIRMED)
    screen = signed_in(factories.PanelUserFactory(owner=owner, panel_role="manager"))
    assert screen.get("/api/displays/me").json()["business"]["id"] == str(business.pk)  # the first
    mine = screen.get(f"/api/displays/kitchen/tickets?business={second.pk}").json()["tickets"]
    assert [t["id"] for t in mine] == [str(order.pk)]
    error_of(screen.get(f"/api/displays/kitchen/tickets?business={other_business.pk}"), 404, "NOT_FOUND")
    error_of(screen.get("/api/displays/me?business=x"), 404, "NOT_FOUND")


def test_agents_and_strangers_do_not_open_the_screens(business, owner):
    agent = factories.AgentFactory(owner=owner)
    error_of(signed_in(agent).get("/api/displays/me"), 401, "UNAUTHENTICATED")
    for screen in ("kitchen", "board"):
        shell = Client().get(f"/{screen}/")  # the shell: it asks for a link or a sign-in
        assert shell.status_code == 200
        html = shell.content.decode()
        assert f'src="/static/{screen}/main.js"' in html
        assert 'src="/static/panel/vendor/pusher-8.6.0.min.js"' in html
        assert "<base" not in html and "<script>" not in html
        assert "base-uri 'none'" in shell["Content-Security-Policy"]
