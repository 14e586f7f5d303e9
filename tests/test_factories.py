"""The factories build valid rows of one tenant: what the tests built by hand before."""

import pytest

from tests import factories


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
