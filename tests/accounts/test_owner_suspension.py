"""A suspended owner (docs/decisions/panel.md, "Suspension"): its kiosks start no new sessions and pair
no devices, its agents' tokens and its owner-API keys are refused, each with 403 OWNER_SUSPENDED
in the surface's envelope; a session already running is served to its end; reinstating restores
everything, and each change is emitted once as an event."""

import uuid

from django.test import Client

from apps.accounts import services as account_services
from apps.core.models import DomainEvent
from apps.kiosks import services as kiosk_services
from apps.kiosks.models import Kiosk, PairingCode
from apps.owner_api import services as key_services
from apps.sessions import services as session_services
from apps.sessions.models import Session
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from tests import factories
from tests.conftest import AgentClient
from tests.owner_api.conftest import OwnerApiClient, request_token, token_for


def suspend(owner):
    account_services.owner_set_suspended(owner=owner, suspended=True)


def reinstate(owner):
    account_services.owner_set_suspended(owner=owner, suspended=False)


def assert_suspended(response, *, kiosk_surface=False):
    assert response.status_code == 403, response.content
    error = response.json()["error"]
    assert error["code"] == "OWNER_SUSPENDED" and "suspended" in error["message"]
    assert ("request_id" in error) is kiosk_surface


def start(kiosk_client, kiosk):
    body = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
    return kiosk_client.post("/api/public/sessions/start", body, content_type="application/json")


def test_a_suspended_owners_kiosk_starts_no_session_but_keeps_its_heartbeat(owner, kiosk, kiosk_client):
    suspend(owner)
    assert_suspended(start(kiosk_client, kiosk), kiosk_surface=True)
    assert not Session.objects.exists()
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code in (200, 204)  # it can show "closed"
    reinstate(owner)
    assert start(kiosk_client, kiosk).status_code == 201


def test_pairing_with_a_suspended_owners_code_is_refused_and_the_code_kept(owner, business):
    _, code = kiosk_services.pairing_code_create(business=business)
    body = {"code": code, "device_id": str(uuid.uuid4()), "device_name": "Front"}
    suspend(owner)
    assert_suspended(
        Client().post("/api/public/kiosks/pair", body, content_type="application/json"), kiosk_surface=True
    )
    assert not Kiosk.objects.exists() and PairingCode.objects.get().used_at is None
    reinstate(owner)
    assert Client().post("/api/public/kiosks/pair", body, content_type="application/json").status_code == 200


def test_token_login_is_refused_only_after_a_correct_password(owner, agent):
    suspend(owner)
    login = {"email": agent.email, "password": factories.PASSWORD}
    assert_suspended(Client().post("/api/auth/login", login, content_type="application/json"))
    wrong = Client().post("/api/auth/login", {**login, "password": "wrong"}, content_type="application/json")
    assert wrong.status_code == 401  # a wrong password learns nothing about the account


def test_existing_tokens_are_refused_on_v1_but_may_log_out_and_work_again_after_reinstating(owner, agent):
    _, token = account_services.access_token_issue(user=agent)
    _, spare = account_services.access_token_issue(user=agent)
    bearer = {"Authorization": f"Bearer {token}"}
    suspend(owner)
    assert_suspended(Client().get("/api/v1/user", headers=bearer))
    assert_suspended(Client().get("/api/v1/orders", headers=bearer))
    logout = Client().post("/api/auth/logout", headers={"Authorization": f"Bearer {spare}"})
    assert logout.status_code == 204
    reinstate(owner)
    assert Client().get("/api/v1/user", headers=bearer).status_code == 200


def test_owner_api_keys_get_no_token_and_live_tokens_are_refused(owner):
    key, secret = key_services.owner_api_key_create(owner=owner, name="pos", scopes=["kiosks:write"], created_by=None)
    live_token = token_for(key, secret)
    suspend(owner)
    refused = request_token(key.client_id, secret)
    assert refused.status_code == 403
    assert refused.json()["error"] == "owner_suspended" and "suspended" in refused.json()["error_description"]
    assert_suspended(OwnerApiClient(live_token).get("/api/owner/kiosks"))
    wrong = request_token(key.client_id, "not-the-secret")
    assert wrong.status_code == 401 and wrong.json()["error"] == "invalid_client"
    reinstate(owner)
    assert OwnerApiClient(token_for(key, secret)).get("/api/owner/kiosks").status_code == 200


def test_agents_still_sign_in_and_finish_a_session_already_running(owner, kiosk, agent):
    pending = factories.SessionFactory(kiosk=kiosk)
    session_services.session_accept(public_id=pending.public_id, agent=agent)
    suspend(owner)
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    ended = client.post(f"/api/sessions/{pending.public_id}/end", {"reason": "completed", "notes": ""})
    assert ended.status_code == 200, ended.content
    assert Session.objects.get(pk=pending.pk).status == "completed"


def test_suspending_emits_once_and_reinstating_emits_once(owner, receiver):
    subscription, _ = webhook_services.subscription_create(
        owner=owner, url=receiver.url, events=["owner.suspended", "owner.reinstated"]
    )
    assert account_services.owner_set_suspended(owner=owner, suspended=True)
    assert not account_services.owner_set_suspended(owner=owner, suspended=True)  # no change, no event
    assert account_services.owner_set_suspended(owner=owner, suspended=False)
    names = list(DomainEvent.objects.filter(owner=owner).order_by("pk").values_list("name", flat=True))
    assert names == ["owner.suspended", "owner.reinstated"]
    suspended = DomainEvent.objects.get(name="owner.suspended")
    assert suspended.payload["owner_id"] == owner.pk and suspended.payload["suspended_at"].endswith("Z")
    assert WebhookDelivery.objects.filter(subscription=subscription).count() == 2


def test_other_owners_are_not_affected(owner, other_business):
    other_kiosk = factories.KioskFactory(business=other_business)
    other_agent = factories.AgentFactory(owner=other_business.owner)
    _, token = account_services.access_token_issue(user=other_agent)
    suspend(owner)
    assert session_services.session_start(kiosk=other_kiosk, customer_locale="en-US").status == "pending"
    assert Client().get("/api/v1/user", headers={"Authorization": f"Bearer {token}"}).status_code == 200
