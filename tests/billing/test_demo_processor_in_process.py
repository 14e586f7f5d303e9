"""The demo processor is reached through the same `stripe` library calls without the network, so it
does not depend on the port (or the existence) of a web server: a server started on any port, with
PORT pointing anywhere, pays through its own demo processor."""

import json

import pytest
import requests
import stripe
from django.conf import settings
from django.test import Client

from apps.billing import processor
from apps.demo_processor import in_process
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoPaymentIntent
from apps.orders.models import Order
from tests import factories
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne

ACCOUNT = "acct_demo_anyport"


@pytest.fixture
def demo_billing(owner):
    demo_processor.account_open(ACCOUNT)
    return factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)


def test_the_default_demo_base_is_no_address_and_is_dispatched_in_process():
    assert settings.PROCESSOR_API_BASE == "http://demo-processor.invalid/demo-processor"
    assert in_process.handles(settings.PROCESSOR_API_BASE)
    assert not in_process.handles("http://127.0.0.1:8000/demo-processor")  # a base set by hand: over HTTP


def test_send_to_payment_and_pay_with_no_web_server(
    agent_client, cart_session, demo_billing, django_capture_on_commit_callbacks
):
    sent = agent_client.post(f"/api/sessions/{cart_session.public_id}/payment")
    assert sent.status_code == 200, sent.content
    intent = DemoPaymentIntent.objects.get()
    assert (intent.account_id, intent.amount) == (ACCOUNT, 2175)
    with django_capture_on_commit_callbacks(execute=True):
        paid = Client().post(
            f"/demo-processor/v1/payment_intents/{intent.intent_id}/confirm",
            json.dumps({"client_secret": intent.client_secret, "card_number": "4242424242424242"}),
            content_type="application/json",
        )
    assert paid.status_code == 200, paid.content
    assert Order.objects.get(session=cart_session).status == "confirmed"


def test_the_library_sees_the_demo_processors_own_errors(demo_billing):
    client = processor.client()
    with pytest.raises(stripe.InvalidRequestError) as missing:
        client.v1.payment_intents.retrieve("pi_nope", options={"stripe_account": ACCOUNT})
    assert missing.value.http_status == 404
    bad_key = stripe.StripeClient(
        "sk_test_wrong",
        base_addresses={"api": settings.PROCESSOR_API_BASE},
        http_client=in_process.InProcessDemoClient(),
    )
    with pytest.raises(stripe.AuthenticationError):
        bad_key.v1.payment_intents.retrieve("pi_nope", options={"stripe_account": ACCOUNT})


def test_the_idempotency_key_replays_in_process(demo_billing):
    client = processor.client()
    params = {"amount": 500, "currency": "usd"}
    options = {"stripe_account": ACCOUNT, "idempotency_key": "same-key"}
    first = client.v1.payment_intents.create(params=params, options=options)
    again = client.v1.payment_intents.create(params=params, options=options)
    assert first.id == again.id and DemoPaymentIntent.objects.count() == 1


@pytest.fixture
def world(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    business = factories.BusinessFactory()
    kiosk = factories.KioskFactory(business=business)
    agent = factories.AgentFactory(owner=business.owner)
    factories.OwnerBillingFactory(owner=business.owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)
    demo_processor.account_open(ACCOUNT)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, price_cents=1000)
    return {"kiosk": kiosk, "agent": agent, "burger": burger}


@pytest.mark.live
def test_a_server_whose_port_is_not_PORT_pays_through_its_own_demo_processor(world, tmp_path):
    """daphne on a free port with PORT=9 (the discard port): before, payments went to PORT."""
    from tests.support.auth import agent_session

    server = start_daphne(tmp_path, database_url=database_url_for_child(tmp_path), PORT="9")
    try:
        base, kiosk = server.base_url, world["kiosk"]
        device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
        started = requests.post(
            f"{base}/api/public/sessions/start",
            json={"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
            headers=device,
            timeout=10,
        )
        session_id = started.json()["session_id"]
        agent = agent_session(base, world["agent"].email)
        assert agent.post(f"{base}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
        line = {"menu_item_id": str(world["burger"].pk), "quantity": 1, "modifier_option_ids": [], "notes": ""}
        cart = agent.post(f"{base}/api/orders", json={"session_id": session_id, "lines": [line]}, timeout=10)
        assert cart.status_code == 200, cart.text
        sent = agent.post(f"{base}/api/sessions/{session_id}/payment", timeout=20)
        assert sent.status_code == 200, f"{sent.status_code} {sent.text}\n{server.log()}"
        payment = requests.get(f"{base}/api/public/sessions/{session_id}/payment", headers=device, timeout=10).json()
        confirm_url = base + payment["processor"]["confirm_url"]
        paid = requests.post(
            confirm_url,
            json={"client_secret": payment["client_secret"], "card_number": "4242 4242 4242 4242"},
            timeout=20,
        )
        assert paid.status_code == 200, paid.text
        status = requests.get(f"{base}/api/public/sessions/{session_id}/status", headers=device, timeout=10).json()
        assert status["status"] == "completed"
    finally:
        stop_daphne(server)
