"""Every body shared by a response, the OpenAPI schema and a real-time message validates strictly
against its published schema in every state (tests/support/schema_conformance.py)."""

from datetime import timedelta

import jsonschema
import pytest
from django.test import Client
from django.utils import timezone

from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk
from apps.orders.bodies import agent_order_body, order_body
from apps.routing.queue import queue_of
from apps.sessions.bodies import incoming_session_body, status_body
from tests import factories
from tests.support.kiosks import pair
from tests.support.orders import BASE, list_orders, make_order
from tests.support.schema_conformance import assert_conforms
from tests.support.sessions import sessions_in_every_state


def test_incoming_session_body_conforms_with_and_without_a_location(business):
    now = timezone.now()
    for location in ("Front door", ""):
        session = factories.SessionFactory(kiosk=factories.KioskFactory(business=business, location=location))
        body = incoming_session_body(session, now=now, offer_expires_at=now + timedelta(seconds=15))
        assert_conforms(body, "IncomingSessionOut")


def test_the_check_rejects_a_missing_or_extra_key_a_wrong_type_and_an_undocumented_null(business):
    now = timezone.now()
    body = incoming_session_body(
        factories.SessionFactory(kiosk=factories.KioskFactory(business=business)), now=now, offer_expires_at=now
    )
    drifted = [
        {key: value for key, value in body.items() if key != "waiting_seconds"},
        {**body, "extra": 1},
        {**body, "waiting_seconds": "0"},
        {**body, "kiosk": {**body["kiosk"], "name": None}},
    ]
    for wrong in drifted:
        with pytest.raises(jsonschema.ValidationError):
            assert_conforms(wrong, "IncomingSessionOut")


def test_status_body_conforms_in_every_state(business, agent):
    for session in sessions_in_every_state(business, agent):
        assert_conforms(status_body(session, queue=queue_of(session)), "StatusOut")


def test_order_bodies_conform_before_the_first_cart_and_with_lines(business):
    session = factories.SessionFactory(kiosk=factories.KioskFactory(business=business), status="active")
    assert_conforms(order_body(session, None), "OrderOut")
    assert_conforms(agent_order_body(session, None), "AgentOrderOut")
    order = factories.OrderFactory(session=session, subtotal_cents=1500, total_cents=1500)
    item = factories.MenuItemFactory(category__catalog__business=business)
    factories.OrderLineFactory(order=order, menu_item=item, notes="no ice", modifiers=[])
    factories.OrderLineFactory(
        order=order, menu_item=None, modifiers=[{"group": "Size", "value": "Large", "option_id": 7}]
    )
    body = order_body(session, order)
    assert [("notes" in line, line["menu_item_id"] is None) for line in body["lines"]] == [(True, False), (False, True)]
    assert_conforms(body, "OrderOut")
    assert_conforms(agent_order_body(session, order), "AgentOrderOut")


def test_the_pairing_and_profile_bodies_conform_with_and_without_a_logo(business):
    for logo in ("https://cdn.example.com/logo.png", ""):
        business.logo_url = logo
        business.save(update_fields=["logo_url"])
        paired = pair(Client(), kiosk_services.pairing_code_create(business=business)[1])
        assert paired.status_code == 200, paired.content
        assert_conforms(paired.json(), "PairOut")
        kiosk = Kiosk.objects.get(pk=int(paired.json()["kiosk_id"]))
        device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": paired.json()["device_token"]}
        assert_conforms(Client(headers=device).get("/api/public/kiosks/me").json(), "KioskProfileOut")


def test_the_integration_order_with_its_integer_line_ids_conforms(api, business, agent):
    order = make_order(business, created_at=BASE, lines=2, agent=agent)
    [body] = list_orders(api).json()["results"]
    assert [line["id"] for line in body["lines"]] == [line.pk for line in order.lines.order_by("position")]
    assert_conforms(body, "IntegrationOrderOut")
