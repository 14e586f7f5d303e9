"""The factories build valid rows of one tenant: what the tests built by hand before."""

import uuid

import pytest
from django.test import Client
from django.utils import timezone

from tests import factories
from tests.owner_api.conftest import request_token


@pytest.mark.django_db
def test_the_commerce_factories_build_rows_of_one_tenant():
    line = factories.OrderLineFactory()
    order = line.order
    assert order.owner_id == order.session.owner_id == order.business.owner_id
    assert order.currency == order.business.currency and order.status == "confirmed"
    payment = factories.PaymentFactory(order=order)
    assert payment.amount_cents == order.total_cents and payment.client_secret.startswith(payment.intent_id)
    assert factories.ProcessorCallFactory(order=order).expires_at > order.created_at
    assert factories.OwnerBillingFactory(owner=order.owner).owner.billing.charges_enabled
    assert factories.ProcessorEventFactory().event_id.startswith("evt_")
    for model_factory in (factories.PaymentFactory, factories.ProcessorEventFactory):
        model_factory._meta.model.objects.first().full_clean()


@pytest.mark.django_db
def test_the_webhook_factories_build_rows_of_one_owner():
    attempt = factories.WebhookAttemptFactory()
    delivery = attempt.delivery
    assert delivery.event.owner_id == delivery.subscription.owner_id
    subscription = factories.WebhookSubscriptionFactory(secret="whsec_known")
    assert subscription.signing_secret() == "whsec_known" and "whsec_known" not in subscription.encrypted_secret


@pytest.mark.django_db
def test_the_account_factories_build_credentials_that_sign_in():
    token = factories.PersonalAccessTokenFactory()
    response = Client(headers={"Authorization": f"Bearer {token.plaintext}"}).get("/api/v1/orders")
    assert response.status_code == 200, response.content
    challenge = factories.LoginChallengeFactory(user=token.user)
    assert challenge.expires_at > timezone.now() and challenge.used_at is None
    assert factories.TOTPDeviceFactory(user=token.user).user.sealedtotpdevice_set.get().confirmed


@pytest.mark.django_db
def test_a_factory_owner_api_key_gets_a_token_from_the_real_token_endpoint():
    key = factories.OwnerApiKeyFactory(scopes="orders:read")
    assert key.secret not in key.application.client_secret  # stored hashed, as the service stores it
    response = request_token(key.client_id, key.secret)
    assert response.status_code == 200, response.content
    assert response.json()["scope"] == "orders:read"


@pytest.mark.django_db
def test_a_factory_pairing_code_pairs_a_kiosk():
    code = factories.PairingCodeFactory()
    body = {"code": code.code, "device_id": str(uuid.uuid4()), "device_name": "Front"}
    response = Client().post("/api/public/kiosks/pair", body, content_type="application/json")
    assert response.status_code == 200, response.content
    code.refresh_from_db()
    assert code.used_at is not None and code.kiosk.business_id == code.business_id


@pytest.mark.django_db
def test_the_remaining_factories_build_valid_rows():
    refund = factories.RefundFactory()
    assert refund.order_id == refund.payment.order_id and refund.payment.status == "succeeded"
    recording = factories.SessionRecordingFactory()
    assert recording.storage_prefix == f"recordings/{recording.session.public_id}/"
    demo_refund = factories.DemoRefundFactory()
    assert demo_refund.intent.status == "succeeded"
    allowance = factories.WebhookFailureAllowanceFactory()
    assert allowance.until > timezone.now()
    for model_factory in (
        factories.PlatformFeeFactory,
        factories.DemoAccountFactory,
        factories.DemoPaymentIntentFactory,
        factories.DemoIdempotentAnswerFactory,
    ):
        model_factory().full_clean()
    refund.full_clean(exclude=["created_by"])  # null (a refund through the owner API), not blank=True
    for row in (recording, demo_refund, allowance):
        row.full_clean()
