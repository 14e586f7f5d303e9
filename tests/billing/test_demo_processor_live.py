"""The demo processor end to end over HTTP: the web server started as `make run` starts it, with no
processor key, so send to payment goes through the real `stripe` library to the server's own
/demo-processor/, the kiosk confirms with demo cards, and the signed events pass the real signature
check of /processor/connect/webhook. The server is the worker's shared one (tests/support/live.py):
each test makes its rows (a fresh owner and connected account) on the live database it reads, and
reads back only its own."""

import json
import re
import uuid

import pytest
import requests
import stripe
from django.conf import settings
from django.db import connection

from apps.demo_processor import services as demo_processor
from apps.webhooks import services as webhook_services
from tests import factories
from tests.support.auth import agent_session
from tests.support.live import SERVER_CHECKED_HASHERS
from tests.support.payments import recorded_event
from tests.support.processes import wait_until

DECLINED, SUCCEEDS = "4000 0000 0000 0002", "4242-4242-4242-4242"


@pytest.fixture
def world(live_db, settings):
    # The server checks passwords with its own hashers (the suite's MD5 shortcut is not among them).
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS
    account = f"acct_demo_live_{uuid.uuid4().hex[:12]}"  # the live database is never flushed
    business = factories.BusinessFactory(name="Burger Barn")
    kiosk = factories.KioskFactory(business=business)
    agent = factories.AgentFactory(owner=business.owner)
    factories.OwnerBillingFactory(owner=business.owner, account_id=account, charges_enabled=True, payouts_enabled=True)
    demo_processor.account_open(account)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000)
    return {"business": business, "kiosk": kiosk, "agent": agent, "burger": burger, "account": account}


@pytest.fixture
def server(world, shared_live_server):
    """The worker's shared server, on the live database where `world` was made."""
    return shared_live_server


def rows(sql: str, *params) -> list[tuple]:
    """Rows of the server's database (the live database, the test's own connection)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def owner_rows(world, sql: str) -> list[tuple]:
    """`sql` with `{owner}` standing for this test's owner id: its rows only."""
    return rows(sql.format(owner=int(world["business"].owner_id)))


PAYMENTS = (
    "SELECT {fields} FROM billing_payment  WHERE order_id IN (SELECT id FROM orders_order WHERE owner_id = {owner})"
)


def wait_for_events(receiver, names: set[str], timeout: float = 10) -> dict:
    def delivered() -> dict | None:
        seen = {json.loads(request.body)["event"]: json.loads(request.body) for request in receiver.received}
        return seen if names <= set(seen) else None

    def state() -> str:
        return f"webhooks {names} (got {[r.body[:80] for r in receiver.received]})"

    return wait_until(delivered, timeout, state)


@pytest.fixture
def subscribed(world, receiver):
    """A webhook subscription to a real receiver, made before the server starts (its copy of the
    SQLite database is taken then)."""
    webhook_services.subscription_create(
        owner=world["business"].owner, url=receiver.url, events=["order.created", "payment.captured"]
    )
    return receiver


def test_a_paid_demo_order_over_http(world, subscribed, server, receiver):
    base, kiosk = server.base_url, world["kiosk"]
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    started = requests.post(
        f"{base}/api/public/sessions/start",
        json={"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
        headers=device,
        timeout=10,
    )
    assert started.status_code == 201, started.text
    session_id = started.json()["session_id"]

    agent = agent_session(base, world["agent"].email)
    assert agent.post(f"{base}/api/sessions/{session_id}/accept", timeout=10).status_code == 200
    line = {"menu_item_id": str(world["burger"].pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
    cart = agent.post(f"{base}/api/orders", json={"session_id": session_id, "lines": [line]}, timeout=10)
    assert cart.status_code == 200 and cart.json()["total_cents"] == 2175, cart.text
    sent = agent.post(f"{base}/api/sessions/{session_id}/payment", timeout=20)
    assert sent.status_code == 200, sent.text

    # The intent was made in the demo processor's table, by the stripe library's request.
    [(intent_id, amount, currency, account, status)] = rows(
        "SELECT intent_id, amount, currency, account_id, status FROM demo_processor_demopaymentintent"
        " WHERE account_id = %s",
        world["account"],
    )
    assert (amount, currency, account, status) == (2175, "usd", world["account"], "requires_payment_method")

    payment = requests.get(f"{base}/api/public/sessions/{session_id}/payment", headers=device, timeout=10).json()
    assert payment["processor"]["mode"] == "demo"
    assert payment["processor"]["notice"] == "Demo payments: no money moves."
    confirm_url = base + payment["processor"]["confirm_url"]
    assert intent_id in confirm_url and payment["client_secret"].startswith(intent_id)
    kiosk_origin = {"Origin": settings.CORS_ALLOWED_ORIGINS[0]}

    declined = requests.post(
        confirm_url,
        json={"client_secret": payment["client_secret"], "card_number": DECLINED},
        headers=kiosk_origin,
        timeout=20,
    )
    assert declined.status_code == 402, declined.text
    assert declined.headers["Access-Control-Allow-Origin"] == kiosk_origin["Origin"]
    error = declined.json()["error"]
    assert (error["type"], error["code"], error["decline_code"]) == ("card_error", "card_declined", "generic_decline")
    assert error["payment_intent"]["status"] == "requires_payment_method"
    after_decline = requests.get(f"{base}/api/public/sessions/{session_id}/payment", headers=device, timeout=10)
    assert after_decline.json()["status"] == "failed"
    assert after_decline.json()["failure_message"] == "Your card was declined."
    status = requests.get(f"{base}/api/public/sessions/{session_id}/status", headers=device, timeout=10).json()
    assert status["status"] == "payment"  # the customer may try another card
    assert owner_rows(world, "SELECT status FROM orders_order WHERE owner_id = {owner}") == [("failed",)]

    paid = requests.post(
        confirm_url, json={"client_secret": payment["client_secret"], "card_number": SUCCEEDS}, timeout=20
    )
    assert paid.status_code == 200, paid.text
    assert paid.json()["status"] == "succeeded" and paid.json()["amount_received"] == 2175
    status = requests.get(f"{base}/api/public/sessions/{session_id}/status", headers=device, timeout=10).json()
    assert status["status"] == "completed"
    assert owner_rows(world, "SELECT status FROM orders_order WHERE owner_id = {owner}") == [("confirmed",)]
    assert owner_rows(world, PAYMENTS.replace("{fields}", "status")) == [("succeeded",)]
    delivered = wait_for_events(receiver, {"order.created", "payment.captured"})
    assert delivered["payment.captured"]["data"]["amount_cents"] == 2175

    again = requests.post(
        confirm_url, json={"client_secret": payment["client_secret"], "card_number": SUCCEEDS}, timeout=20
    )
    assert again.status_code == 400 and again.json()["error"]["code"] == "payment_intent_unexpected_state"
    # Both events went through the webhook view's signature check and were recorded.
    assert sorted(rows("SELECT type FROM billing_processorevent WHERE account_id = %s", world["account"])) == [
        ("payment_intent.payment_failed",),
        ("payment_intent.succeeded",),
    ]


def test_the_connect_webhook_refuses_a_tampered_demo_event(world, server):
    """The demo secret is the one the server checks with: a correctly signed event passes, the
    same event with one changed byte, or signed with another secret, is refused."""
    account = world["account"]
    event = recorded_event("account.updated", {"id": account, "charges_enabled": False}, account=account)
    payload = json.dumps(event)
    secret = settings.PROCESSOR_CONNECT_WEBHOOK_SECRET
    assert secret.startswith("whsec_demo_")
    header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    url = f"{server.base_url}/processor/connect/webhook"
    send = lambda body, signature: requests.post(  # noqa: E731
        url, data=body, headers={"Stripe-Signature": signature, "Content-Type": "application/json"}, timeout=10
    )

    tampered = send(payload.replace('"charges_enabled": false', '"charges_enabled": true '), header)
    assert tampered.status_code == 400 and tampered.json()["error"]["code"] == "INVALID_SIGNATURE"
    other = send(payload, stripe.WebhookSignature.generate_signature_header(payload, "whsec_someone_else"))
    assert other.status_code == 400 and other.json()["error"]["code"] == "INVALID_SIGNATURE"
    assert rows("SELECT COUNT(*) FROM billing_processorevent WHERE account_id = %s", account) == [(0,)]
    genuine = send(payload, header)
    assert genuine.status_code == 200 and genuine.json()["outcome"].startswith("account")


def test_the_stripe_library_against_the_demo_processor(world, server):
    """The calls the service makes, from the library itself: accounts and onboarding links,
    intents and their cancel, refunds, idempotent retries and the library's usual exceptions."""
    api = stripe.StripeClient(
        settings.PROCESSOR_SECRET_KEY, base_addresses={"api": f"{server.base_url}/demo-processor"}
    ).v1
    key = f"acct-{world['account']}"  # the platform's keys are the live database's, never flushed
    account = api.accounts.create(params={"type": "standard"}, options={"idempotency_key": key})
    assert account.id.startswith("acct_demo_") and account.charges_enabled is False
    assert api.accounts.create(params={"type": "standard"}, options={"idempotency_key": key}).id == account.id
    link = api.account_links.create(
        params={
            "account": account.id,
            "refresh_url": server.base_url,
            "return_url": server.base_url + "/panel/billing",
            "type": "account_onboarding",
        }
    )
    assert link.url == f"{server.base_url}/demo-processor/connect/{account.id}/onboarding"
    with pytest.raises(stripe.InvalidRequestError):  # onboarding not finished: no charges yet
        api.payment_intents.create(params={"amount": 500, "currency": "usd"}, options={"stripe_account": account.id})

    on = {"stripe_account": world["account"]}
    first = api.payment_intents.create(
        params={"amount": 500, "currency": "eur"}, options={**on, "idempotency_key": "k1"}
    )
    retry = api.payment_intents.create(
        params={"amount": 500, "currency": "eur"}, options={**on, "idempotency_key": "k1"}
    )
    assert first.id == retry.id and first.status == "requires_payment_method"
    assert api.payment_intents.cancel(first.id, options=on).status == "canceled"
    with pytest.raises(stripe.InvalidRequestError) as missing:
        api.payment_intents.cancel("pi_nope", options=on)
    assert missing.value.http_status == 404 and missing.value.code == "resource_missing"
    with pytest.raises(stripe.PermissionError):  # not a connected account of the demo processor
        api.payment_intents.create(params={"amount": 500, "currency": "usd"}, options={"stripe_account": "acct_x"})
    with pytest.raises(stripe.InvalidRequestError) as bad_amount:
        api.payment_intents.create(params={"amount": 0, "currency": "usd"}, options=on)
    assert bad_amount.value.param == "amount"
    with pytest.raises(stripe.AuthenticationError):
        stripe.StripeClient(
            "sk_test_wrong", base_addresses={"api": f"{server.base_url}/demo-processor"}
        ).v1.accounts.create()

    paid = api.payment_intents.create(params={"amount": 900, "currency": "usd"}, options=on)
    confirmed = requests.post(
        f"{server.base_url}/demo-processor/v1/payment_intents/{paid.id}/confirm",
        json={"client_secret": paid.client_secret, "card_number": "4242424242424242"},
        timeout=10,
    )
    assert confirmed.status_code == 200, confirmed.text  # no Payment row: the event is "unknown payment intent"
    refund = api.refunds.create(
        params={"payment_intent": paid.id, "amount": 400}, options={**on, "idempotency_key": "r1"}
    )
    assert (refund.amount, refund.status) == (400, "succeeded")
    with pytest.raises(stripe.InvalidRequestError):  # more than what is left
        api.refunds.create(params={"payment_intent": paid.id, "amount": 501}, options=on)
    refunded = "SELECT amount FROM demo_processor_demorefund WHERE intent_id IN"
    refunded += " (SELECT id FROM demo_processor_demopaymentintent WHERE account_id = %s)"
    assert rows(refunded, world["account"]) == [(400,)]


def _form_token(html: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)


def test_an_owner_connects_a_demo_account_from_the_panel(live_db, settings, shared_live_server):
    """Connect onboarding against the demo processor: the panel's button creates the account and
    its link through the library, the demo page finishes onboarding, and the account.updated event
    enables charges; the billing page then shows a demo account."""
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS
    owner = factories.BusinessFactory().owner
    panel_user = factories.PanelUserFactory(owner=owner, panel_role="owner")
    base, browser = shared_live_server.base_url, requests.Session()
    login = browser.get(f"{base}/panel/login", timeout=10)
    signed_in = browser.post(
        f"{base}/panel/login",
        data={
            "email": panel_user.email,
            "password": factories.PASSWORD,
            "csrfmiddlewaretoken": _form_token(login.text),
        },
        timeout=10,
    )
    assert signed_in.url == f"{base}/panel/", signed_in.text[:500]
    billing = browser.get(f"{base}/panel/billing", timeout=10)
    assert "Demo payments: no money moves." in billing.text and 'id="demo-account"' not in billing.text
    onboarding = browser.post(
        f"{base}/panel/billing/onboarding", data={"csrfmiddlewaretoken": _form_token(billing.text)}, timeout=20
    )
    assert re.fullmatch(rf"{base}/demo-processor/connect/acct_demo_\w+/onboarding", onboarding.url), onboarding.url
    assert "Demo payments: no money moves." in onboarding.text
    finished = browser.post(onboarding.url, data={"csrfmiddlewaretoken": _form_token(onboarding.text)}, timeout=20)
    assert finished.url == f"{base}/panel/billing"
    assert 'id="demo-account"' in finished.text and "charges enabled" in finished.text


@pytest.fixture
def reader_world(world):
    """The kiosk's simulated reader, registered on the live database."""
    from apps.billing.services import readers

    world["reader"] = readers.reader_register(kiosk=world["kiosk"], registration_code="simulated-wpe", label="Till")
    return world


def test_a_demo_order_paid_on_the_reader_over_http(reader_world, subscribed, server, receiver):
    """The agent sends to payment; the customer taps a declined card and then an approved one on
    the reader (the processor's test helper, through the library, over HTTP); the order is
    confirmed once."""
    world = reader_world
    base, kiosk, reader_id = server.base_url, world["kiosk"], world["reader"].reader_id
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
    line = {"menu_item_id": str(world["burger"].pk), "quantity": 2, "modifier_option_ids": [], "notes": ""}
    assert agent.post(f"{base}/api/orders", json={"session_id": session_id, "lines": [line]}, timeout=10).ok
    sent = agent.post(f"{base}/api/sessions/{session_id}/payment", timeout=20)
    assert sent.status_code == 200, sent.text
    status = requests.get(f"{base}/api/public/sessions/{session_id}/status", headers=device, timeout=10).json()
    assert status["payment"] == {
        "method": "card_present",
        "reader": {"label": "Till", "status": "online", "action_status": "in_progress", "failure_code": ""},
        "failure_code": "",
    }

    readers_api = stripe.StripeClient(
        settings.PROCESSOR_SECRET_KEY, base_addresses={"api": f"{base}/demo-processor"}
    ).v1.test_helpers.terminal.readers
    on = {"stripe_account": world["account"]}
    declined = readers_api.present_payment_method(
        reader_id, params={"card_present": {"number": "4000000000009995"}}, options=on
    )
    assert (declined.action.status, declined.action.failure_code) == ("failed", "card_declined")
    assert owner_rows(world, "SELECT status FROM orders_order WHERE owner_id = {owner}") == [("failed",)]
    # the same intent went back to the reader: another card may be tapped
    tapped = readers_api.present_payment_method(
        reader_id, params={"card_present": {"number": "4242424242424242"}}, options=on
    )
    assert tapped.action.status == "succeeded"
    status = requests.get(f"{base}/api/public/sessions/{session_id}/status", headers=device, timeout=10).json()
    assert status["status"] == "completed" and status["payment"] is None
    assert owner_rows(world, PAYMENTS.replace("{fields}", "status, method, card_last4")) == [
        ("succeeded", "card_present", "4242")
    ]
    created = "SELECT COUNT(*) FROM core_domainevent WHERE name = 'order.created' AND owner_id = {owner}"
    assert owner_rows(world, created) == [(1,)]
    wait_for_events(receiver, {"order.created", "payment.captured"})
    assert sorted(rows("SELECT type FROM billing_processorevent WHERE account_id = %s", world["account"])) == [
        ("payment_intent.payment_failed",),
        ("payment_intent.succeeded",),
        ("terminal.reader.action_failed",),
        ("terminal.reader.action_succeeded",),
    ]
