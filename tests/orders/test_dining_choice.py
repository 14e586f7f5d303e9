"""Eat in or take away: the kiosk asks before paying unless the owner turned the question off; the
choice is on the order, the kitchen ticket, the panel and `order.created`."""

import pytest
from django.test import Client

from apps.billing.models import Payment
from apps.core.models import DomainEvent
from apps.orders.models import Order, OrderSettings
from tests import factories
from tests.support.auth import error_of
from tests.support.displays import display_client, display_token
from tests.support.payments import intent_event, post_event


def dining_url(session) -> str:
    return f"/api/public/sessions/{session.public_id}/dining"


def choose(client, session, body):
    return client.post(dining_url(session), body, content_type="application/json")


def test_the_kiosk_asks_and_the_choice_reaches_the_ticket_and_order_created(
    agent_client, cart_session, kiosk_client, processor, billing, kiosk_events
):
    asked = kiosk_client.get(dining_url(cart_session))
    assert asked.status_code == 200, asked.content
    assert asked.json() == {"ask": True, "dining": None}
    chosen = kiosk_client.post(dining_url(cart_session), {"dining": "take_away"}, content_type="application/json")
    assert chosen.status_code == 200, chosen.content
    assert chosen.json() == {"ask": True, "dining": "take_away"}
    assert Order.objects.get().dining == "take_away"

    assert agent_client.post(f"/api/sessions/{cart_session.public_id}/payment").status_code == 200
    post_event(Client(), intent_event("payment_intent.succeeded", Payment.objects.get()))
    created = DomainEvent.objects.get(name="order.created").payload
    assert created["dining"] == "take_away"
    ticket = display_client(display_token(cart_session.business)).get("/api/displays/kitchen/tickets").json()
    assert ticket["tickets"][0]["dining"] == "take_away"
    locked = kiosk_client.post(dining_url(cart_session), {"dining": "eat_in"}, content_type="application/json")
    error_of(locked, 409, "ORDER_LOCKED")
    assert Order.objects.get().dining == "take_away"


def test_bad_choices_and_other_kiosks_are_refused(cart_session, kiosk_client, business):
    error_of(
        choose(kiosk_client, cart_session, {"dining": "picnic"}),
        422,
        "VALIDATION_ERROR",
    )
    error_of(choose(kiosk_client, cart_session, {}), 422, "VALIDATION_ERROR")
    other = factories.KioskFactory(business=business)
    stranger = Client(headers={"X-Device-Id": str(other.device_id), "X-Device-Token": other.raw_token})
    error_of(stranger.get(dining_url(cart_session)), 404, "SESSION_NOT_FOUND")
    error_of(
        choose(stranger, cart_session, {"dining": "eat_in"}),
        404,
        "SESSION_NOT_FOUND",
    )
    assert Order.objects.get().dining == ""


def test_no_cart_yet_is_a_conflict(kiosk, kiosk_client):
    session = factories.SessionFactory(kiosk=kiosk)
    error_of(
        choose(kiosk_client, session, {"dining": "eat_in"}),
        409,
        "ORDER_EMPTY",
    )


@pytest.mark.django_db
def test_the_owner_turns_the_question_off_in_the_panel(business, owner, other_business, kiosk, kiosk_client):
    panel = factories.PanelUserFactory(owner=owner, panel_role="manager")
    client = Client()
    client.force_login(panel)
    assert client.post("/panel/displays/dining", {"business": business.pk}).status_code == 302
    assert OrderSettings.objects.get(business=business).ask_dining is False
    session = factories.SessionFactory(kiosk=kiosk)
    assert kiosk_client.get(dining_url(session)).json() == {"ask": False, "dining": None}
    assert client.post("/panel/displays/dining", {"business": business.pk, "ask_dining": "on"}).status_code == 302
    assert kiosk_client.get(dining_url(session)).json()["ask"] is True
    # the same form keeps (or not) the address a receipt is mailed to
    assert OrderSettings.objects.get(business=business).keep_receipt_email is False
    page = client.get("/panel/displays").content.decode()
    assert f'id="keep-receipt-email-{business.pk}"' in page and "Keep receipt addresses" in page
    form = {"business": business.pk, "ask_dining": "on", "keep_receipt_email": "on"}
    assert client.post("/panel/displays/dining", form).status_code == 302
    assert OrderSettings.objects.get(business=business).keep_receipt_email is True
    assert client.post("/panel/displays/dining", {"business": other_business.pk}).status_code == 404
    assert client.post("/panel/displays/dining", {"business": "x"}).status_code == 404
    assert not OrderSettings.objects.filter(business=other_business).exists()
