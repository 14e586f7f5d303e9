"""A freed seat is offered at once, heard by a real pusher-js client (tests/realtime_js/listen.mjs)
on the agent's private channel: an agent serving two customers at once is in a video
conversation, so a second video customer waits; the moment the agent sends the first to payment
(the real flow, through the demo processor) the waiting customer is offered to it, within 2 s and
without the routing tick (the server runs with a tick far too slow to be what offered it)."""

import time

import pytest
import requests

from apps.demo_processor import services as demo_processor
from apps.routing.models import RoutingSettings
from apps.routing.routing_settings import defaults
from tests import factories
from tests.realtime.test_realtime_redis_restart import Listener, start_session
from tests.support.auth import agent_session
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne

pytestmark = [pytest.mark.live]
ACCOUNT = "acct_demo_capacity"


@pytest.fixture
def world(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]  # the server's own
    business = factories.BusinessFactory()
    base = defaults()
    RoutingSettings.objects.create(
        owner=business.owner,
        offer_size=base.offer_size,
        offer_seconds=base.offer_seconds,
        any_language_after_seconds=base.any_language_after_seconds,
        misses_before_break=base.misses_before_break,
        self_service_after_seconds=base.self_service_after_seconds,
        agent_capacity=2,
    )
    agent = factories.AgentFactory(owner=business.owner)
    factories.OwnerBillingFactory(owner=business.owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)
    demo_processor.account_open(ACCOUNT)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000)
    kiosks = factories.KioskFactory.create_batch(2, business=business)
    return {"agent": agent, "burger": burger, "kiosks": kiosks}


@pytest.fixture
def server(world, tmp_path):
    # A 60 s tick: an offer within 2 s can only come from the router run the payment started.
    live = start_daphne(tmp_path, database_url=database_url_for_child(tmp_path), ROUTING_TICK_SECONDS="60")
    yield live
    stop_daphne(live)


def test_a_seat_freed_by_a_payment_is_offered_at_once(node, world, server):
    listener = Listener(node, server, world["agent"])
    try:
        listener.wait_for(lambda line: "subscribed" in line, 20)
        first_kiosk, second_kiosk = world["kiosks"]
        first = start_session(server, first_kiosk)
        heard = listener.wait_for(lambda line: line.get("event") == "SessionIncoming", 5)
        assert heard["data"]["session"]["id"] == first

        base = server.base_url
        agent = agent_session(base, world["agent"].email)
        assert agent.post(f"{base}/api/sessions/{first}/accept", timeout=10).status_code == 200
        assert agent.get(f"{base}/api/user", timeout=10).json()["sessions_held"] == 1
        second = start_session(server, second_kiosk)  # a video customer: the agent is in one
        incoming = agent.get(f"{base}/api/sessions/incoming", timeout=10).json()["sessions"]
        assert incoming == []  # a seat is free, but not for a second video conversation

        line = {"menu_item_id": str(world["burger"].pk), "quantity": 1, "modifier_option_ids": [], "notes": ""}
        assert agent.post(f"{base}/api/orders", json={"session_id": first, "lines": [line]}, timeout=10).ok
        sent = agent.post(f"{base}/api/sessions/{first}/payment", timeout=20)
        assert sent.status_code == 200, sent.text
        paid_at = time.monotonic()
        offered = listener.wait_for(
            lambda line: line.get("event") == "SessionIncoming" and line["data"]["session"]["id"] == second, 2
        )
        assert time.monotonic() - paid_at < 2, offered
        assert requests.codes.ok == agent.post(f"{base}/api/sessions/{second}/accept", timeout=10).status_code
        body = agent.get(f"{base}/api/user", timeout=10).json()
        assert (body["capacity"], body["sessions_held"], body["agent_status"]) == (2, 2, "busy")
    finally:
        listener.close()
