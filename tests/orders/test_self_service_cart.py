"""Self-service cart: POST /api/public/sessions/{id}/order lets a customer nobody has answered build
the cart alone, with the agent's request lines, replace semantics, server totals and 422 rules; once
an agent accepts, the cart is the agent's."""

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from apps.orders.models import Order
from apps.sessions import services as session_services
from apps.sessions.models import Session
from tests import factories
from tests.conftest import kiosk_client_for


@pytest.fixture
def menu(business):
    """Burger (899) with required Cooking (1 of 2) and optional Extras (cheese 100); Fries (349)."""
    business.tax_rate_bps = 875
    business.save()
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=899)
    cooking = factories.ModifierGroupFactory(item=burger, name="Cooking", required=True, min=1, max=1)
    extras = factories.ModifierGroupFactory(item=burger, name="Extras", required=False, min=0, max=2)
    return {
        "burger": burger,
        "medium": factories.ModifierOptionFactory(group=cooking, name="Medium"),
        "cheese": factories.ModifierOptionFactory(group=extras, name="Cheese", price_cents=100),
        "fries": factories.MenuItemFactory(category=category, name="Fries", price_cents=349),
        "gone": factories.MenuItemFactory(category=category, name="Gone", track_stock=True, stock=0),
    }


@pytest.fixture
def waiting(kiosk):
    return factories.SessionFactory(kiosk=kiosk)


def line(item, quantity=1, options=(), notes=""):
    return {
        "menu_item_id": str(item.pk),
        "quantity": quantity,
        "modifier_option_ids": [str(o.pk) for o in options],
        "notes": notes,
    }


def post_cart(client, session, lines):
    return client.post(f"/api/public/sessions/{session.public_id}/order", {"lines": lines}, "application/json")


def test_a_waiting_customer_builds_a_cart_priced_on_the_server(kiosk_client, waiting, menu, broadcasts):
    response = post_cart(
        kiosk_client,
        waiting,
        [line(menu["burger"], 2, [menu["medium"], menu["cheese"]], "no pickles"), line(menu["fries"])],
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["subtotal_cents"], body["tax_cents"], body["total_cents"]) == (2347, 205, 2552)
    assert body["status"] == "draft" and body["session_id"] == waiting.public_id and body["order_number"]
    burger, fries = body["lines"]
    assert burger["unit_price_cents"] == 999 and burger["quantity"] == 2 and burger["notes"] == "no pickles"
    assert burger["modifiers"] == [{"group": "Cooking", "value": "Medium"}, {"group": "Extras", "value": "Cheese"}]
    assert fries["name"] == "Fries" and "notes" not in fries
    session = Session.objects.get(pk=waiting.pk)
    assert session.status == "pending" and session.agent_id is None  # still in the queue, no agent recorded
    # The answer is the agent's body: each line also carries its option ids, to resend the cart.
    assert burger["modifier_option_ids"] == [str(menu["medium"].pk), str(menu["cheese"].pk)]
    assert fries["modifier_option_ids"] == []
    as_the_kiosk_reads_it = {
        **body,
        "lines": [{k: v for k, v in x.items() if k != "modifier_option_ids"} for x in body["lines"]],
    }
    [updated] = [b for b in broadcasts if b.event == "OrderUpdated"]
    assert updated.channels == [f"private-kiosk.{waiting.kiosk_id}"] and updated.data == as_the_kiosk_reads_it
    assert kiosk_client.get(f"/api/public/sessions/{waiting.public_id}/order").json() == {
        **as_the_kiosk_reads_it,
        "receipt_url": None,  # the kiosk's order resource adds the receipt's address once paid
        "receipt_card_lines": [],  # and how it was paid
    }


def test_each_post_replaces_the_whole_cart(kiosk_client, waiting, menu):
    first = post_cart(kiosk_client, waiting, [line(menu["fries"], 3)]).json()
    second = post_cart(kiosk_client, waiting, [line(menu["burger"], 1, [menu["medium"]])]).json()
    assert [x["name"] for x in second["lines"]] == ["Burger"] and second["total_cents"] == 978
    assert second["order_number"] == first["order_number"] and Order.objects.count() == 1
    emptied = post_cart(kiosk_client, waiting, []).json()
    assert emptied["lines"] == [] and emptied["total_cents"] == 0


def test_invalid_lines_are_422_with_every_reason_and_change_nothing(kiosk_client, waiting, menu):
    post_cart(kiosk_client, waiting, [line(menu["fries"])])
    response = post_cart(
        kiosk_client,
        waiting,
        [line(menu["burger"]), line(menu["gone"]), {**line(menu["fries"]), "menu_item_id": "999999"}],
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "VALIDATION_ERROR" and "request_id" in error
    assert set(error["details"]["lines"]) == {"0", "1", "2"}
    assert error["details"]["lines"]["0"] == ["Cooking: choose at least 1."]
    assert "sold out" in error["details"]["lines"]["1"][0]
    bad_quantity = post_cart(kiosk_client, waiting, [line(menu["fries"], 0)])
    assert bad_quantity.status_code == 422 and bad_quantity.json()["error"]["code"] == "VALIDATION_ERROR"
    not_a_list = kiosk_client.post(
        f"/api/public/sessions/{waiting.public_id}/order", {"lines": "x"}, "application/json"
    )
    assert not_a_list.status_code == 422
    assert [x.name for x in Order.objects.get().lines.all()] == ["Fries"]  # the old cart stands


def test_without_the_device_token_it_is_401(waiting, menu):
    response = post_cart(Client(), waiting, [line(menu["fries"])])
    assert response.status_code == 401 and response.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"


def test_another_kiosks_session_is_404_for_the_same_or_another_owner(business, other_business, waiting, menu):
    for kiosk in (factories.KioskFactory(business=business), factories.KioskFactory(business=other_business)):
        response = post_cart(kiosk_client_for(kiosk), waiting, [line(menu["fries"])])
        assert response.status_code == 404 and response.json()["error"]["code"] == "SESSION_NOT_FOUND"
    assert not Order.objects.exists()


def test_once_an_agent_accepts_the_cart_is_the_agents(kiosk_client, waiting, menu, agent, agent_client):
    post_cart(kiosk_client, waiting, [line(menu["burger"], 1, [menu["medium"], menu["cheese"]])])
    session_services.session_accept(public_id=waiting.public_id, agent=agent)

    refused = post_cart(kiosk_client, waiting, [line(menu["fries"])])
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "SESSION_ALREADY_ACCEPTED"
    # The agent's read of the session in hand returns the customer's cart, ready to resend.
    current = agent_client.get("/api/sessions/current").json()
    assert current["session"]["id"] == waiting.public_id
    [taken] = current["order"]["lines"]
    assert taken["name"] == "Burger" and taken["modifier_option_ids"] == [
        str(menu["medium"].pk),
        str(menu["cheese"].pk),
    ]
    resent = agent_client.post(
        "/api/orders", {"session_id": waiting.public_id, "lines": [line(menu["burger"], 2, [menu["medium"]])]}
    )
    assert resent.status_code == 200 and resent.json()["order_number"] == current["order"]["order_number"]


def test_an_ended_session_is_409(kiosk_client, waiting, menu):
    session_services.session_cancel_by_kiosk(public_id=waiting.public_id, kiosk=waiting.kiosk)
    response = post_cart(kiosk_client, waiting, [line(menu["fries"])])
    assert response.status_code == 409 and response.json()["error"]["code"] == "SESSION_ALREADY_ENDED"


def test_the_pending_timeout_counts_from_the_last_cart_change(kiosk_client, kiosk, business, menu):
    long_ago = timezone.now() - timedelta(seconds=600)
    ordering = factories.SessionFactory(kiosk=kiosk, created_at=long_ago)
    idle = factories.SessionFactory(kiosk=factories.KioskFactory(business=business), created_at=long_ago)
    post_cart(kiosk_client, ordering, [line(menu["fries"])])
    assert session_services.sessions_abandon_stale(older_than_seconds=180) == 1
    assert Session.objects.get(pk=ordering.pk).status == "pending"
    assert Session.objects.get(pk=idle.pk).status == "abandoned"
    Order.objects.filter(session=ordering).update(updated_at=long_ago)
    assert session_services.sessions_abandon_stale(older_than_seconds=180) == 1
    assert Session.objects.get(pk=ordering.pk).status == "abandoned"
