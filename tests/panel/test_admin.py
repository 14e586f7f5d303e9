"""The super-admin (Django admin): every list opens, owners are suspended and moved between plans,
secrets never show, processor events and delivery attempts are read-only."""

import pytest

from apps.accounts.models import Owner
from apps.billing.models import OwnerBilling
from tests import factories
from tests.panel.objects import tenant_objects

CHANGELISTS = [
    "accounts/owner",
    "accounts/business",
    "accounts/user",
    "accounts/personalaccesstoken",
    "kiosks/kiosk",
    "agent_sessions/session",
    "orders/order",
    "webhooks/webhooksubscription",
    "webhooks/webhookdelivery",
    "webhooks/webhookattempt",
    "billing/ownerbilling",
    "billing/processorevent",
    "billing/payment",
    "billing/refund",
]


@pytest.fixture
def objects(business):
    return tenant_objects(business)


@pytest.mark.parametrize("changelist", CHANGELISTS)
def test_every_list_opens(admin_client, objects, changelist):
    assert admin_client.get(f"/admin/{changelist}/").status_code == 200
    assert admin_client.get(f"/admin/{changelist}/", {"q": "x"}).status_code == 200


def test_owners_are_suspended_and_moved_between_plans(admin_client, owner):
    changelist = "/admin/accounts/owner/"
    admin_client.post(changelist, {"action": "suspend", "_selected_action": [owner.pk]})
    assert Owner.objects.get(pk=owner.pk).suspended
    admin_client.post(changelist, {"action": "move_to_pro_plan", "_selected_action": [owner.pk]})
    assert OwnerBilling.objects.get(owner=owner).plan == "pro"
    admin_client.post(changelist, {"action": "reactivate", "_selected_action": [owner.pk]})
    assert not Owner.objects.get(pk=owner.pk).suspended


def test_webhook_secret_never_shows(admin_client, objects):
    page = admin_client.get(f"/admin/webhooks/webhooksubscription/{objects.subscription.pk}/change/")
    assert page.status_code == 200 and objects.subscription.signing_secret().encode() not in page.content


def test_delivery_attempts_and_processor_events_are_read_only(admin_client, objects):
    factories.WebhookAttemptFactory(delivery=objects.delivery, succeeded=False, status_code=500, duration_ms=12)
    page = admin_client.get(f"/admin/webhooks/webhookdelivery/{objects.delivery.pk}/change/")
    assert page.status_code == 200 and b"500" in page.content and b'name="_save"' not in page.content
    event = factories.ProcessorEventFactory(event_id="evt_1", type="invoice.paid", endpoint="platform")
    assert admin_client.get("/admin/billing/processorevent/add/").status_code == 403
    view = admin_client.get(f"/admin/billing/processorevent/{event.pk}/change/")
    assert view.status_code == 200 and b'name="_save"' not in view.content


def test_token_hashes_are_read_only(admin_client, agent):
    from apps.accounts.services import access_token_issue

    token, _ = access_token_issue(user=agent)
    page = admin_client.get(f"/admin/accounts/personalaccesstoken/{token.pk}/change/")
    assert page.status_code == 200 and b'name="token_hash"' not in page.content
