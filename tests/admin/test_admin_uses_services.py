"""The super-admin goes through the services: state fields are read-only in its forms, and each
action calls a service per object, so events, webhooks, released sessions and forgotten caches
follow as they do from the panel and the APIs."""

import pytest
from django.core.cache import cache
from django.test import Client

from apps.accounts import services as account_services
from apps.accounts.models import Business, Owner, PersonalAccessToken, User
from apps.billing.models import OwnerBilling
from apps.core.models import DomainEvent
from apps.kiosks.selectors import credentials_cache_key, kiosk_for_device_credentials
from apps.sessions import services as session_services
from apps.sessions.models import Session
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from tests import factories
from tests.conftest import kiosk_client_for


@pytest.fixture
def hook(owner, receiver):
    events = ["session.ended", "owner.suspended", "owner.reinstated"]
    return webhook_services.subscription_create(owner=owner, url=receiver.url, events=events)[0]


def act(client, changelist: str, action: str, *objects):
    response = client.post(f"/admin/{changelist}/", {"action": action, "_selected_action": [obj.pk for obj in objects]})
    assert response.status_code == 302, response.content
    return response


def inputs_absent(client, path: str, *names: str) -> None:
    page = client.get(path)
    assert page.status_code == 200
    for name in names:
        assert f'name="{name}"'.encode() not in page.content, name


def accepted_session(kiosk, agent) -> Session:
    pending = factories.SessionFactory(kiosk=kiosk)
    return session_services.session_accept(public_id=pending.public_id, agent=agent)


def test_suspending_from_the_admin_emits_and_blocks_and_reinstating_restores(admin_client, owner, kiosk, hook):
    act(admin_client, "accounts/owner", "suspend", owner)
    assert Owner.objects.get(pk=owner.pk).suspended
    suspended = DomainEvent.objects.get(name="owner.suspended", owner=owner)
    assert WebhookDelivery.objects.filter(subscription=hook, event=suspended).exists()
    body = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
    started = kiosk_client_for(kiosk).post("/api/public/sessions/start", body, content_type="application/json")
    assert started.status_code == 403 and started.json()["error"]["code"] == "OWNER_SUSPENDED"

    act(admin_client, "accounts/owner", "suspend", owner)  # already suspended: no second event
    assert DomainEvent.objects.filter(name="owner.suspended").count() == 1
    act(admin_client, "accounts/owner", "reactivate", owner)
    assert not Owner.objects.get(pk=owner.pk).suspended
    assert WebhookDelivery.objects.filter(subscription=hook, event__name="owner.reinstated").exists()


def test_the_suspended_flag_cannot_be_typed_into_the_owner_form(admin_client, owner):
    inputs_absent(admin_client, f"/admin/accounts/owner/{owner.pk}/change/", "suspended", "billing-0-plan")
    form = {
        "name": "Renamed",
        "suspended": "on",
        "billing-TOTAL_FORMS": "0",
        "billing-INITIAL_FORMS": "0",
        "businesses-TOTAL_FORMS": "0",
        "businesses-INITIAL_FORMS": "0",
    }
    response = admin_client.post(f"/admin/accounts/owner/{owner.pk}/change/", form)
    assert response.status_code == 302, response.context["errors"]
    saved = Owner.objects.get(pk=owner.pk)
    assert saved.name == "Renamed" and not saved.suspended
    assert not DomainEvent.objects.exists()


def test_plan_actions_go_through_the_plan_service(admin_client, owner):
    act(admin_client, "accounts/owner", "move_to_pro_plan", owner)
    assert OwnerBilling.objects.get(owner=owner).plan == "pro"
    inputs_absent(admin_client, f"/admin/billing/ownerbilling/{OwnerBilling.objects.get().pk}/change/", "plan")


def test_ending_a_session_from_the_admin_tells_the_kiosk_and_the_webhooks(admin_client, kiosk, agent, hook):
    session = accepted_session(kiosk, agent)
    pending = factories.SessionFactory(kiosk=factories.KioskFactory(business=kiosk.business))
    poll_url = f"/api/public/sessions/{session.public_id}/status"
    assert kiosk_client_for(kiosk).get(poll_url).json()["status"] == "active"  # cached now

    act(admin_client, "agent_sessions/session", "end_as_technical_issue", session, pending)

    ended = Session.objects.get(pk=session.pk)
    assert (ended.status, ended.end_reason) == ("failed", "technical_issue")
    assert kiosk_client_for(kiosk).get(poll_url).json()["status"] == "failed"  # the cached copy moved on
    [delivery] = WebhookDelivery.objects.filter(subscription=hook, event__name="session.ended")
    assert delivery.event.payload["reason"] == "technical_issue"
    assert Session.objects.get(pk=pending.pk).status == "pending"  # waiting sessions are left alone
    assert User.objects.get(pk=agent.pk).agent_status == "available"


def test_session_state_is_read_only(admin_client, kiosk, agent):
    session = accepted_session(kiosk, agent)
    inputs_absent(admin_client, f"/admin/agent_sessions/session/{session.pk}/change/", "status", "agent", "kiosk")
    admin_client.post(f"/admin/agent_sessions/session/{session.pk}/change/", {"status": "completed"})
    assert Session.objects.get(pk=session.pk).status == "active"
    assert admin_client.get("/admin/agent_sessions/session/add/").status_code == 403


def test_unpairing_from_the_admin_stops_the_device_at_once(admin_client, kiosk, kiosk_client):
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code in (200, 204)
    assert cache.get(credentials_cache_key(kiosk.device_id)) is not None  # the device's row is cached

    act(admin_client, "kiosks/kiosk", "unpair", kiosk)

    response = kiosk_client.post("/api/public/kiosks/heartbeat")
    assert response.status_code == 401 and response.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"


def test_kiosk_tenant_and_pairing_are_read_only_and_a_rename_forgets_the_cache(admin_client, kiosk, kiosk_client):
    inputs_absent(admin_client, f"/admin/kiosks/kiosk/{kiosk.pk}/change/", "business", "unpaired_at", "token_hash")
    kiosk_client.post("/api/public/kiosks/heartbeat")
    other_business = factories.BusinessFactory()
    form = {"name": "Window", "location": "Front", "business": other_business.pk, "unpaired_at_0": "2020-01-01"}
    assert admin_client.post(f"/admin/kiosks/kiosk/{kiosk.pk}/change/", form).status_code == 302
    kiosk.refresh_from_db()
    assert (kiosk.name, kiosk.location, kiosk.business_id, kiosk.unpaired_at) == (
        "Window",
        "Front",
        kiosk.business_id,
        None,
    )
    assert kiosk.business_id != other_business.pk
    assert cache.get(credentials_cache_key(kiosk.device_id)) is None


def _unchanged_form(page) -> dict:
    """What the admin's change page posts when nothing is edited: its form and every inline's."""
    forms = [page.context["adminform"].form]
    for inline in page.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    values = {}
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is not None and value is not False:  # an unticked box posts nothing
                values[form.add_prefix(name)] = "on" if value is True else value
    return values


def _business_form(business, **changes) -> dict:
    fields = ["name", "logo_url", "currency", "tax_rate_bps", "primary_color", "attract_message", "address", "timezone"]
    form = {name: getattr(business, name) for name in fields} | changes
    return {name: value for name, value in form.items() if value is not None}


def test_a_business_changed_in_the_admin_reaches_its_kiosks_cached_credentials(admin_client, kiosk, kiosk_client):
    business = kiosk.business
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    assert cache.get(credentials_cache_key(kiosk.device_id)) is not None

    form = _business_form(business, name="Barn by the admin", tax_rate_bps=1500)
    response = admin_client.post(f"/admin/accounts/business/{business.pk}/change/", form)
    assert response.status_code == 302, response.content

    assert cache.get(credentials_cache_key(kiosk.device_id)) is None
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    found = kiosk_for_device_credentials(device_id=kiosk.device_id, token_hash=kiosk.token_hash)
    assert found is not None and found.kiosk.business.name == "Barn by the admin"


def test_a_business_changed_in_its_owners_admin_page_reaches_its_kiosks(admin_client, kiosk, kiosk_client):
    business, owner = kiosk.business, kiosk.business.owner
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    form = _unchanged_form(admin_client.get(f"/admin/accounts/owner/{owner.pk}/change/"))
    [prefix] = [key[: -len("-name")] for key, value in form.items() if key.endswith("-name") and value == business.name]
    form[f"{prefix}-name"] = "Barn, inline"
    response = admin_client.post(f"/admin/accounts/owner/{owner.pk}/change/", form)
    assert response.status_code == 302, response.context["errors"]
    assert Business.objects.get(pk=business.pk).name == "Barn, inline"
    assert cache.get(credentials_cache_key(kiosk.device_id)) is None


def test_disabling_a_user_from_the_admin_releases_its_session_and_revokes_its_tokens(admin_client, kiosk, agent, hook):
    session = accepted_session(kiosk, agent)
    _, token = account_services.access_token_issue(user=agent)
    inputs_absent(admin_client, f"/admin/accounts/user/{agent.pk}/change/", "is_active", "agent_status", "owner")

    act(admin_client, "accounts/user", "disable_users", agent)

    assert not User.objects.get(pk=agent.pk).is_active
    assert Session.objects.get(pk=session.pk).status == "failed"
    assert WebhookDelivery.objects.filter(subscription=hook, event__name="session.ended").exists()
    assert Client().get("/api/v1/user", headers={"Authorization": f"Bearer {token}"}).status_code == 401

    act(admin_client, "accounts/user", "reactivate_users", agent)
    assert User.objects.get(pk=agent.pk).is_active
    assert Client().get("/api/v1/user", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_revoking_a_token_from_the_admin_stops_it(admin_client, agent):
    token, plaintext = account_services.access_token_issue(user=agent)
    inputs_absent(admin_client, f"/admin/accounts/personalaccesstoken/{token.pk}/change/", "revoked_at")
    act(admin_client, "accounts/personalaccesstoken", "revoke", token)
    assert PersonalAccessToken.objects.get(pk=token.pk).revoked_at is not None
    assert Client().get("/api/v1/user", headers={"Authorization": f"Bearer {plaintext}"}).status_code == 401


def test_orders_subscriptions_and_businesses_keep_their_state_fields_read_only(admin_client, kiosk, agent, hook):
    session = accepted_session(kiosk, agent)
    order = factories.OrderFactory(session=session, number="A1", status="draft", currency="USD")
    inputs_absent(admin_client, f"/admin/orders/order/{order.pk}/change/", "status", "total_cents", "business")
    inputs_absent(
        admin_client, f"/admin/webhooks/webhooksubscription/{hook.pk}/change/", "active", "failure_count", "url"
    )
    inputs_absent(admin_client, f"/admin/accounts/business/{kiosk.business_id}/change/", "owner")
