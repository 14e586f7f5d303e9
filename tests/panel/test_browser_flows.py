"""The owner panel in a real Chromium against the live server, as an owner and a manager use it."""

import json
import re

import pytest
import requests
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from apps.kiosks.models import Kiosk
from apps.owner_api.models import OwnerApiKey
from apps.webhooks.models import WebhookDelivery, WebhookSubscription
from tests import factories
from tests.panel.conftest import sign_in
from tests.panel.support import confirm_order
from tests.support.receivers import Receiver

pytestmark = pytest.mark.live


def signed_in(page, live_server, user, path: str):
    """`path` opened as `user`, signed in already (its session cookie, as Django's test client
    signs in): the sign-in form's own journey is the first test's, the others start where they
    are about. Returns goto's response."""
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    return page.goto(path)


def test_owner_signs_in_and_pairs_a_kiosk_with_a_generated_code(page, live_server, panel_owner, business):
    sign_in(page, panel_owner.email)
    expect(page.locator("h1")).to_have_text("Dashboard")
    page.click("nav >> text=Kiosks")
    page.click("#generate-pairing-code")
    code = page.locator("#pairing-code").inner_text().strip()
    assert re.fullmatch(r"\d{6}", code)
    expect(page.locator("#pairing-countdown")).to_have_text(re.compile(r"^1[45]:\d\d$"))

    device_id = "7b0c8f4e-2a51-4c3e-9d7a-1f2e3d4c5b6a"
    paired = requests.post(
        f"{live_server.url}/api/public/kiosks/pair",
        json={"code": code, "device_id": device_id, "device_name": "Window tablet"},
        timeout=10,
    )
    assert paired.status_code in (200, 201), paired.text
    assert paired.json()["business"]["name"] == business.name

    page.reload()
    expect(page.locator("#pairing-code")).to_have_count(0)  # the code is shown once
    row = page.locator("#kiosk-table tr", has_text="Window tablet")
    expect(row).to_contain_text("online")
    kiosk = Kiosk.objects.get(device_id=device_id)

    row.locator("summary", has_text="Rename").click()
    row.locator("input[name=name]").fill("Drive-through")
    row.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("#kiosk-table")).to_contain_text("Drive-through")

    page.locator("#kiosk-table tr", has_text="Drive-through").locator("button", has_text="Unpair").click()
    expect(page.locator(".messages")).to_contain_text("unpaired")
    kiosk.refresh_from_db()
    assert not kiosk.is_paired
    token = paired.json()["device_token"]
    refused = requests.post(
        f"{live_server.url}/api/public/kiosks/heartbeat",
        headers={"X-Device-Id": device_id, "X-Device-Token": token},
        timeout=10,
    )
    assert refused.status_code == 401
    page.console_errors.assert_none()


def test_owner_creates_a_webhook_sees_the_secret_once_and_tests_it(page, live_server, panel_owner):
    with Receiver() as receiver:
        signed_in(page, live_server, panel_owner, "/panel/webhooks")
        page.fill("input[name=url]", receiver.url)
        page.check("input[value='order.created']")
        page.check("input[value='kiosk.offline']")
        page.click("#webhook-create button[type=submit]")

        secret = page.locator("#webhook-secret").inner_text().strip()
        subscription = WebhookSubscription.objects.get(owner=panel_owner.owner)
        assert re.fullmatch(r"[0-9a-f]{64}", secret) and secret == subscription.signing_secret()
        assert subscription.events == ["order.created", "kiosk.offline"]
        page.reload()
        expect(page.locator("#webhook-secret")).to_have_count(0)
        assert secret not in page.content()

        page.click("#send-test")
        log = page.locator("#delivery-log")
        expect(log).to_contain_text("webhook.test")
        expect(log).to_contain_text("succeeded")
        [received] = receiver.received
        assert received.headers["X-Service-Event"] == "webhook.test"
        assert json.loads(received.body)["event"] == "webhook.test"

        delivery = WebhookDelivery.objects.get()
        page.locator(f"tr[data-delivery-id='{delivery.pk}'] button", has_text="Resend").click()
        expect(page.locator(".messages")).to_contain_text(f"Delivery {delivery.pk} sent again")
        assert len(receiver.received) == 2
        assert receiver.received[1].headers["X-Service-Delivery"] == str(delivery.pk)
    page.console_errors.assert_none()


def test_owner_creates_an_api_key_sees_the_secret_once_and_revokes_it(page, live_server, panel_owner):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    signed_in(page, live_server, panel_owner, "/panel/")
    page.click("nav >> text=API keys")
    expect(page.locator("h1")).to_have_text("API keys")
    page.click("#api-key-create button[type=submit]")  # nothing filled in: the service's errors
    expect(page.locator("#api-key-name-errors")).to_contain_text("Give the key a name")
    page.fill("input[name=name]", "Till integration")
    page.check("input[value='orders:read']")
    page.click("#api-key-create button[type=submit]")

    secret = page.locator("#api-key-secret").inner_text().strip()
    client_id = page.locator("#api-key-client-id").inner_text().strip()
    expect(page.locator("#api-key-token-url")).to_have_text(f"{live_server.url}/api/owner/oauth/token")
    page.click("#copy-api-key-secret")
    expect(page.locator("#copy-api-key-secret")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == secret
    key = OwnerApiKey.objects.get(owner=panel_owner.owner)
    assert key.client_id == client_id and key.scope_list == ["orders:read"]

    def exchange():  # the client-credentials grant, as an integration sends it
        url, form = f"{live_server.url}/api/owner/oauth/token", {"grant_type": "client_credentials"}
        return requests.post(url, data=form, auth=(client_id, secret), timeout=10)

    exchanged = exchange()
    assert exchanged.status_code == 200, exchanged.text

    page.reload()
    expect(page.locator("#api-key-secret")).to_have_count(0)  # shown once
    assert secret not in page.content()
    row = page.locator("#api-key-table tr", has_text="Till integration")
    expect(row).to_contain_text("active")
    expect(row).to_contain_text(client_id)

    dialogs = []
    page.on("dialog", lambda dialog: dialogs.append(dialog.message))  # the fixture's handler accepts it
    row.locator("button", has_text="Revoke").click()
    expect(page.locator(".messages")).to_contain_text("revoked")
    assert dialogs and "Revoke the API key" in dialogs[0]
    expect(page.locator("#api-key-table tr", has_text="Till integration")).to_contain_text("revoked")
    refused = exchange()
    assert refused.status_code == 401 and refused.json()["error"] == "invalid_client"
    page.console_errors.assert_none()


def test_owner_reenables_a_paused_webhook(page, live_server, panel_owner):
    subscription = factories.WebhookSubscriptionFactory(
        owner=panel_owner.owner, url="http://127.0.0.1:9/hooks", events=["order.created"], secret="0" * 64
    )
    WebhookSubscription.objects.filter(pk=subscription.pk).update(active=False, failure_count=10)
    signed_in(page, live_server, panel_owner, f"/panel/webhooks/{subscription.pk}")
    page.locator("#paused-banner button", has_text="Re-enable").click()
    expect(page.locator("#paused-banner")).to_have_count(0)
    subscription.refresh_from_db()
    assert subscription.active and subscription.failure_count == 0
    page.console_errors.assert_none()


def test_owner_refunds_an_order_after_confirming(
    page, live_server, panel_owner, agent_client, cart_session, processor, billing, kiosk_events
):
    order = confirm_order(agent_client, cart_session)
    signed_in(page, live_server, panel_owner, "/panel/orders")
    page.click(f"text=#{order.number}")
    expect(page.locator("#order-status")).to_have_text("confirmed")
    page.click("text=Mark preparing")
    expect(page.locator("#order-status")).to_have_text("preparing")

    page.click("#refund-link")
    page.fill("input[name=reason]", "cold fries")
    page.click("#confirm-refund")  # without the confirmation box ticked: refused by the form
    expect(page.locator(".errorlist")).to_be_visible()
    assert processor.calls_to("/v1/refunds") == []
    page.check("input[name=confirm]")
    page.click("#confirm-refund")

    expect(page.locator("#order-status")).to_have_text("refunded")
    expect(page.locator("#refund-table")).to_contain_text("cold fries")
    [call] = processor.calls_to("/v1/refunds")
    assert call.params["amount"] == str(order.total_cents)
    page.console_errors.assert_none()


def test_manager_is_refused_billing_agents_webhooks_and_api_keys(page, live_server, panel_manager):
    signed_in(page, live_server, panel_manager, "/panel/")
    expect(page.locator("h1")).to_have_text("Dashboard")
    nav = page.locator("nav")
    expect(nav).not_to_contain_text("Billing")
    expect(nav).not_to_contain_text("Webhooks")
    expect(nav).not_to_contain_text("API keys")
    for path in ("/panel/billing", "/panel/agents", "/panel/webhooks", "/panel/api-keys"):
        response = page.goto(path)
        assert response.status == 403
        expect(page.locator("#forbidden-message")).to_contain_text("Only the account owner")
    page.goto("/panel/orders")
    expect(page.locator("h1")).to_have_text("Orders")
    page.console_errors.assert_none(allow=r"status of 403 \(Forbidden\)")  # the refused pages themselves
