"""Shared set-up for payment tests: the processor stand-in, a connected account, a session with
a cart, signed processor events, and a recorder of the kiosk's real-time events."""

import json
import secrets
import time

import pytest
import stripe

from apps.billing.models import OwnerBilling
from apps.orders import services as order_services
from apps.sessions import services as session_services
from tests import factories
from tests.processor_standin import ProcessorStandIn

PLATFORM_SECRET = "whsec_platform_test"
CONNECT_SECRET = "whsec_connect_test"
ACCOUNT = "acct_demo123"


@pytest.fixture
def processor(settings):
    with ProcessorStandIn() as standin:
        settings.PROCESSOR_SECRET_KEY = "sk_test_standin"
        settings.PROCESSOR_API_BASE = standin.url
        settings.PROCESSOR_WEBHOOK_SECRET = PLATFORM_SECRET
        settings.PROCESSOR_CONNECT_WEBHOOK_SECRET = CONNECT_SECRET
        yield standin


@pytest.fixture
def kiosk_events(monkeypatch):
    """What the kiosk is told in real time (PaymentRequested, PaymentFailed, ...)."""
    sent = []
    monkeypatch.setattr(
        "apps.billing.kiosk_events.broadcast", lambda channels, event, data: sent.append((channels, event, data))
    )
    return sent


@pytest.fixture
def billing(owner):
    return OwnerBilling.objects.create(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)


@pytest.fixture
def menu_item(business):
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    return factories.MenuItemFactory(
        category=category, name="Burger", price_cents=1000, track_stock=True, stock=6, low_stock_threshold=5
    )


@pytest.fixture
def cart_session(kiosk, agent, menu_item):
    """An active session whose cart holds 2 burgers (2000 + 8.75% tax = 2175)."""
    pending = factories.SessionFactory(kiosk=kiosk)
    session = session_services.session_accept(public_id=pending.public_id, agent=agent)
    line = {"menu_item_id": str(menu_item.pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
    order_services.cart_replace(agent=agent, session_public_id=session.public_id, lines=[line])
    return session


def processor_event(event_type: str, obj: dict, *, created: int | None = None, account: str | None = ACCOUNT) -> dict:
    return {
        "id": "evt_" + secrets.token_hex(8),
        "object": "event",
        "type": event_type,
        "created": created or int(time.time()),
        "account": account,
        "data": {"object": obj},
    }


def post_event(client, event: dict, *, connect: bool = True, secret: str | None = None, timestamp: int | None = None):
    payload = json.dumps(event)
    secret = secret or (CONNECT_SECRET if connect else PLATFORM_SECRET)
    header = stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp=timestamp)
    path = "/processor/connect/webhook" if connect else "/processor/webhook"
    return client.post(path, payload, content_type="application/json", headers={"Stripe-Signature": header})
