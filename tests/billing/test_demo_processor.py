"""The demo processor in process: the kiosk's confirm (authorised by the client secret; every bad
input a clear 4xx, never a 500), its events through the connect webhook's real signature check, CORS
for the kiosk app origins, the API's key and idempotency rules, demo onboarding, the `processor`
block the kiosk app reads, the panel's demo notice, and production's refusal. The stripe library
against it over HTTP: tests/billing/test_demo_processor_live.py."""

import json
import os
import subprocess
import sys
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.test import Client

from apps.billing.models import OwnerBilling, Payment, PaymentStatus
from apps.billing.services import payments
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoAccount, DemoIdempotentAnswer, DemoPaymentIntent
from apps.orders.models import Order, OrderStatus
from apps.sessions.models import Session, SessionStatus
from tests import factories
from tests.support.processes import ROOT

ACCOUNT = "acct_demo_inproc"


@pytest.fixture
def demo_billing(owner):
    demo_processor.account_open(ACCOUNT)
    return factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)


@pytest.fixture
def demo_payment(cart_session, demo_billing) -> Payment:
    """A session in payment whose intent lives in the demo processor (made as the service would
    record the answer of payment_intents.create)."""
    order = Order.objects.get(session=cart_session)
    intent = demo_processor.intent_create(
        account_id=ACCOUNT, params={"amount": str(order.total_cents), "currency": "usd"}
    )
    payment = factories.PaymentFactory(
        order=order,
        account_id=ACCOUNT,
        intent_id=intent["id"],
        client_secret=intent["client_secret"],
        status=PaymentStatus.REQUIRES_PAYMENT_METHOD,
    )
    Session.objects.filter(pk=cart_session.pk).update(status=SessionStatus.PAYMENT)
    Order.objects.filter(pk=order.pk).update(status=OrderStatus.AWAITING_PAYMENT)
    return payment


def confirm(payment_or_id, body, *, raw: bool = False, **headers):
    intent_id = getattr(payment_or_id, "intent_id", payment_or_id)
    data = body if raw else json.dumps(body)
    return Client().post(
        f"/demo-processor/v1/payment_intents/{intent_id}/confirm",
        data,
        content_type="application/json",
        headers=headers,
    )


# --- Confirm: outcomes and the events they send ---------------------------------------------


def test_a_declined_card_fails_the_order_and_tells_the_kiosk_then_a_good_card_pays(
    demo_payment, broadcasts, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        declined = confirm(
            demo_payment, {"client_secret": demo_payment.client_secret, "card_number": "4000000000000002"}
        )
    assert declined.status_code == 402
    assert declined.json()["error"]["code"] == "card_declined"
    demo_payment.refresh_from_db()
    assert (demo_payment.status, demo_payment.failure_message) == ("failed", "Your card was declined.")
    assert Order.objects.get().status == OrderStatus.FAILED
    assert Session.objects.get().status == SessionStatus.PAYMENT
    assert (
        "PaymentFailed",
        {
            "session_id": demo_payment.order.session.public_id,
            "message": "Your card was declined.",
            "failure_code": "generic_decline",
        },
    ) in [(event, data) for _, event, data in broadcasts]

    with django_capture_on_commit_callbacks(execute=True):
        paid = confirm(
            demo_payment, {"client_secret": demo_payment.client_secret, "card_number": "4242 4242 4242 4242"}
        )
    assert paid.status_code == 200 and paid.json()["status"] == "succeeded"
    assert Payment.objects.get().status == PaymentStatus.SUCCEEDED
    assert Order.objects.get().status == OrderStatus.CONFIRMED
    assert Session.objects.get().status == SessionStatus.COMPLETED
    assert "PaymentSucceeded" in [event for _, event, _ in broadcasts]


def test_a_processing_error_leaves_the_intent_payable_with_the_same_card(demo_payment):
    secret = demo_payment.client_secret
    failed = confirm(demo_payment, {"client_secret": secret, "card_number": "4000000000000119"})
    assert failed.status_code == 402 and failed.json()["error"]["code"] == "processing_error"
    assert Payment.objects.get().status == PaymentStatus.FAILED
    assert confirm(demo_payment, {"client_secret": secret, "card_number": "4242424242424242"}).status_code == 200
    assert Payment.objects.get().status == PaymentStatus.SUCCEEDED


def test_an_already_succeeded_or_cancelled_intent_cannot_be_confirmed(demo_payment):
    secret = demo_payment.client_secret
    assert confirm(demo_payment, {"client_secret": secret, "card_number": "4242424242424242"}).status_code == 200
    again = confirm(demo_payment, {"client_secret": secret, "card_number": "4000000000000002"})
    assert again.status_code == 400
    assert again.json()["error"]["code"] == "payment_intent_unexpected_state"
    assert Payment.objects.get().status == PaymentStatus.SUCCEEDED  # the late decline changed nothing

    other = demo_processor.intent_create(account_id=ACCOUNT, params={"amount": "100", "currency": "usd"})
    demo_processor.intent_cancel(account_id=ACCOUNT, intent_id=other["id"])
    cancelled = confirm(other["id"], {"client_secret": other["client_secret"], "card_number": "4242424242424242"})
    assert cancelled.status_code == 400


def test_events_pass_the_real_signature_check(demo_payment, monkeypatch):
    """Signed, then checked by the webhook view against PROCESSOR_CONNECT_WEBHOOK_SECRET: an event
    signed with another secret is refused and changes nothing."""
    monkeypatch.setattr("apps.demo_processor.processor_webhooks.signing_secret", lambda: "whsec_someone_else")
    sent = demo_processor.processor_webhooks.send(
        "payment_intent.succeeded", {"id": demo_payment.intent_id}, account=ACCOUNT
    )
    assert sent["error"]["code"] == "INVALID_SIGNATURE"
    assert Payment.objects.get().status == PaymentStatus.REQUIRES_PAYMENT_METHOD
    refused = confirm(demo_payment, {"client_secret": demo_payment.client_secret, "card_number": "4242424242424242"})
    assert refused.status_code == 200  # the processor's side moved; the service was not told
    assert Payment.objects.get().status == PaymentStatus.REQUIRES_PAYMENT_METHOD


# --- Confirm: bad input ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "card",
    [
        "4242",
        "4242 4242 4242 4241",
        "abcd efgh ijkl mnop",
        "",
        None,
        4242424242424242,
        ["4242"],
        "٤٢٤٢٤٢٤٢٤٢٤٢٤٢٤٢",
        "4" * 80,
    ],
)
def test_a_malformed_card_number_is_422(demo_payment, card):
    answer = confirm(demo_payment, {"client_secret": demo_payment.client_secret, "card_number": card})
    assert answer.status_code == 422, answer.content
    assert answer.json()["error"] == {
        "type": "invalid_request_error",
        "code": "incorrect_number",
        "param": "card_number",
        "message": "Your card number is incorrect.",
    }
    assert Payment.objects.get().status == PaymentStatus.REQUIRES_PAYMENT_METHOD


def test_a_valid_number_that_is_no_demo_card_is_422_with_the_demo_cards(demo_payment):
    answer = confirm(demo_payment, {"client_secret": demo_payment.client_secret, "card_number": "5555555555554444"})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "demo_card_required"
    assert "4242 4242 4242 4242" in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    "secret",
    ["wrong", "", None, 12, "\ud800", lambda p: p.client_secret + "x", lambda p: p.client_secret.upper()],
)
def test_a_wrong_client_secret_is_404(demo_payment, secret):
    value = secret(demo_payment) if callable(secret) else secret
    answer = confirm(demo_payment, {"client_secret": value, "card_number": "4242424242424242"})
    assert answer.status_code == 404 and answer.json()["error"]["code"] == "resource_missing"
    assert Payment.objects.get().status == PaymentStatus.REQUIRES_PAYMENT_METHOD


@pytest.mark.parametrize("intent_id", ["pi_unknown", "x" * 300, "pi_%00", "%E2%80%AE", "pi_demo_\u00e9"])
def test_an_unknown_intent_is_404(db, intent_id):
    answer = confirm(intent_id, {"client_secret": "pi_unknown_secret_x", "card_number": "4242424242424242"})
    assert answer.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        "[1, 2]",
        '"text"',
        "null",
        "",
        '{"client_secret": "a\u0000"',
        "[" * 100 + "]" * 100,
        b"\xff\xfe",
        '{"client_secret": "a\\u0000b", "card_number": "4242424242424242"}',
    ],
)
def test_a_body_that_is_not_a_json_object_is_400(demo_payment, body):
    answer = confirm(demo_payment, body, raw=True)
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"]["type"] == "invalid_request_error"


def test_confirm_takes_post_only(demo_payment):
    answer = Client().get(f"/demo-processor/v1/payment_intents/{demo_payment.intent_id}/confirm")
    assert answer.status_code == 405 and answer["Allow"] == "POST"


# --- CORS -------------------------------------------------------------------------------------


def test_the_kiosk_app_origin_may_call_confirm_cross_origin(demo_payment):
    origin = settings.CORS_ALLOWED_ORIGINS[0]
    path = f"/demo-processor/v1/payment_intents/{demo_payment.intent_id}/confirm"
    preflight = Client().options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == origin
    assert "content-type" in preflight["Access-Control-Allow-Headers"]
    stranger = Client().options(
        path, headers={"Origin": "https://elsewhere.example", "Access-Control-Request-Method": "POST"}
    )
    assert "Access-Control-Allow-Origin" not in stranger
    # The secret-key API is server to server: no CORS there.
    api = Client().options(
        "/demo-processor/v1/payment_intents", headers={"Origin": origin, "Access-Control-Request-Method": "POST"}
    )
    assert "Access-Control-Allow-Origin" not in api


# --- The secret-key API -----------------------------------------------------------------------


def _api_post(path: str, data: dict, *, key: str | None = None, **headers):
    authorization = f"Bearer {settings.PROCESSOR_SECRET_KEY if key is None else key}"
    return Client().post(
        f"/demo-processor/v1/{path}",
        urlencode(data),
        content_type="application/x-www-form-urlencoded",
        headers={"Authorization": authorization, **headers},
    )


def test_the_api_wants_the_demo_secret_key(demo_billing):
    for key in ("", "sk_test_other", "pk_test_demo"):
        answer = _api_post("payment_intents", {"amount": "100", "currency": "usd"}, key=key, Stripe_Account=ACCOUNT)
        assert answer.status_code == 401 and answer.json()["error"]["type"] == "invalid_request_error"
    assert not DemoPaymentIntent.objects.exists()


def test_an_idempotency_key_replays_the_first_answer(demo_billing):
    headers = {"Stripe-Account": ACCOUNT, "Idempotency-Key": "order-1-payment-1"}
    first = _api_post("payment_intents", {"amount": "100", "currency": "usd"}, **headers)
    retry = _api_post("payment_intents", {"amount": "100", "currency": "usd"}, **headers)
    assert first.status_code == retry.status_code == 200
    assert first.json() == retry.json() and retry["Idempotent-Replayed"] == "true"
    assert DemoPaymentIntent.objects.count() == 1 and DemoIdempotentAnswer.objects.count() == 1


@pytest.mark.parametrize(
    ("params", "param"),
    [
        ({"amount": "x", "currency": "usd"}, "amount"),
        ({"amount": "100", "currency": "us\u0000"}, "currency"),
        ({}, "amount"),
    ],
)
def test_bad_intent_parameters_are_400(demo_billing, params, param):
    answer = _api_post("payment_intents", params, Stripe_Account=ACCOUNT)
    assert answer.status_code == 400 and answer.json()["error"]["param"] == param


# --- Onboarding, the kiosk's processor block, the panel ------------------------------------------


def test_demo_onboarding_enables_charges_through_an_account_updated_event(owner):
    account = demo_processor.account_create(params={"metadata[owner_id]": str(owner.pk)})
    factories.OwnerBillingFactory(owner=owner, account_id=account["id"], charges_enabled=False, payouts_enabled=False)
    link = demo_processor.account_link_create(
        params={"account": account["id"], "return_url": "http://127.0.0.1:8000/panel/billing"},
        onboarding_url="http://testserver/x",
    )
    assert link["object"] == "account_link"
    page = Client().get(f"/demo-processor/connect/{account['id']}/onboarding")
    assert page.status_code == 200 and b"Demo payments: no money moves." in page.content
    finished = Client().post(f"/demo-processor/connect/{account['id']}/onboarding")
    assert finished.status_code == 302 and finished["Location"] == "http://127.0.0.1:8000/panel/billing"
    billing = OwnerBilling.objects.get(owner=owner)
    assert billing.charges_enabled and billing.requirements_status == "complete"
    assert DemoAccount.objects.get(account_id=account["id"]).charges_enabled
    assert Client().get("/demo-processor/connect/acct_nope/onboarding").status_code == 404


def test_the_kiosk_learns_it_pays_through_the_demo_processor(demo_payment, kiosk_client):
    session = demo_payment.order.session
    answer = kiosk_client.get(f"/api/public/sessions/{session.public_id}/payment")
    assert answer.status_code == 200
    assert answer.json()["processor"] == {
        "mode": "demo",
        "publishable_key": "pk_test_demo",
        "confirm_url": f"/demo-processor/v1/payment_intents/{demo_payment.intent_id}/confirm",
        "notice": "Demo payments: no money moves.",
    }


def test_payment_requested_names_the_live_processor_when_one_is_configured(
    cart_session, processor, billing, kiosk_events, settings
):
    settings.PROCESSOR_PUBLISHABLE_KEY = "pk_test_owner"
    payments.payment_request(public_id=cart_session.public_id, agent=cart_session.agent)
    [(_, event, data)] = kiosk_events
    assert event == "PaymentRequested"
    assert data["processor"] == {
        "mode": "live",
        "publishable_key": "pk_test_owner",
        "confirm_url": None,
        "notice": None,
    }


def test_the_panel_billing_page_shows_a_demo_account(owner, demo_billing):
    client = Client()
    client.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    page = client.get("/panel/billing")
    assert page.status_code == 200
    assert b"Demo payments: no money moves." in page.content and b'id="demo-account"' in page.content


# --- Production refuses it ----------------------------------------------------------------------


def _settings_probe(tmp_path, **env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "APP_ENV"}}
    secret = "c2V0LWluLXRoZS1lbnZpcm9ubWVudC4uLi4uLi4uLi4="
    clean.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        VAR_DIR=str(tmp_path),
        APP_ENV="production",
        ALLOWED_HOSTS="kiosk.example.test",
        METRICS_TOKEN="t",
        **{name: secret for name in ("SECRET_KEY", "REALTIME_APP_ID", "REALTIME_APP_KEY", "REALTIME_APP_SECRET")},
        **{name: secret for name in ("VIDEO_APP_ID", "VIDEO_APP_CERTIFICATE", "WEBHOOK_SECRET_KEYS")},
        **env,
    )
    probe = "import django; django.setup(); from django.conf import settings; print(settings.DEMO_PROCESSOR)"
    return subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


def test_production_refuses_to_start_with_the_demo_processor(tmp_path):
    refused = _settings_probe(tmp_path, PROCESSOR_API_BASE="http://127.0.0.1:8000/demo-processor")
    assert refused.returncode != 0 and "ImproperlyConfigured" in refused.stderr
    assert "demo processor" in refused.stderr.strip().splitlines()[-1]
    without_key = _settings_probe(tmp_path)  # no key in production: payments are simply not configured
    assert without_key.returncode == 0, without_key.stderr[-2000:]
    assert without_key.stdout.strip() == "False"


@pytest.mark.postgres
def test_concurrent_confirms_pay_once(transactional_db, demo_payment):
    """Two cards confirmed at the same moment: the intent's row lock orders them, one pays and
    the other is refused as no longer payable; the order is paid once."""
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    intent = {"id": demo_payment.intent_id, "client_secret": demo_payment.client_secret}

    def pay(_):
        try:
            body = {"client_secret": intent["client_secret"], "card_number": "4242424242424242"}
            return confirm(intent["id"], body).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = sorted(pool.map(pay, range(4)))
    assert answers == [200, 400, 400, 400]
    assert Payment.objects.get().status == PaymentStatus.SUCCEEDED
    assert Order.objects.get().status == OrderStatus.CONFIRMED


def test_a_body_over_the_upload_limit_is_a_400(demo_payment, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = {"client_secret": demo_payment.client_secret, "card_number": "4242424242424242", "pad": "x" * 2000}
    answer = confirm(demo_payment, body)
    assert answer.status_code == 400, answer.content
    assert Payment.objects.get().status == PaymentStatus.REQUIRES_PAYMENT_METHOD
