"""The first run says exactly what to do. `/` shows the kiosk app's pairing code (while it can pair)
and makes a new one; the demo owner's webhooks go to a receiver the project serves, and each
delivery shows in the panel."""

import io
import json
import re

import pytest
from django.core.management import call_command
from django.test import Client

from apps.kiosks import services as kiosk_services
from apps.kiosks.models import PairingCode
from apps.webhooks.models import WebhookDelivery, WebhookSubscription
from tests.support.processes import web_server


def seed(*args) -> dict:
    out = io.StringIO()
    call_command("seed_demo", "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def shown_code(html: str) -> str | None:
    found = re.search(r'id="kiosk-pairing-code">(\d{6})<', html)
    return found.group(1) if found else None


def test_the_landing_page_shows_the_kiosk_apps_code_until_it_is_used(db):
    data = seed()
    code = data["kiosk_app"]["pairing_code"]
    html = Client().get("/").content.decode()
    assert shown_code(html) == code
    assert "Take a demo order" in html and "Confirmed (paid and sent to the kitchen)" in html
    kiosk_services.kiosk_pair(code=code, device_id="0b8e7d60-3f0e-4b8e-9c77-2c1d7c2c3c11", device_name="Tablet")
    html = Client().get("/").content.decode()
    assert shown_code(html) is None and "was used or expired" in html


def test_a_new_code_from_the_landing_page(db):
    seed()
    client = Client(enforce_csrf_checks=True)
    page = client.get("/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    before = PairingCode.objects.count()
    made = client.post("/demo/kiosk-pairing-code", {"csrfmiddlewaretoken": token})
    assert made.status_code == 302 and made["Location"] == "/"
    assert PairingCode.objects.count() == before + 1
    fresh = shown_code(client.get("/").content.decode())
    assert fresh and kiosk_services.kiosk_pair(
        code=fresh, device_id="1b8e7d60-3f0e-4b8e-9c77-2c1d7c2c3c11", device_name="T"
    )


def test_no_demo_helpers_in_production(db, settings):
    seed()
    settings.PRODUCTION = True
    assert Client().post("/demo/kiosk-pairing-code").status_code in (403, 404)
    assert 'id="kiosk-pairing-code"' not in Client().get("/").content.decode()


def test_the_demo_subscription_is_kept_replaced_and_reenabled(db):
    first = seed()["webhook"]
    assert first["url"] == "http://127.0.0.1:8000/demo-webhooks/receiver"
    subscription = WebhookSubscription.objects.get(url=first["url"])
    assert set(subscription.events) >= {"order.created", "payment.captured", "session.ended"}
    WebhookSubscription.objects.filter(pk=subscription.pk).update(active=False)
    seed()
    assert WebhookSubscription.objects.get(pk=subscription.pk).active
    moved = seed("--base-url", "http://127.0.0.1:9000")["webhook"]
    assert list(
        WebhookSubscription.objects.filter(url__endswith="/demo-webhooks/receiver").values_list("url", flat=True)
    ) == [moved["url"]]


def test_the_receiver_takes_deliveries_and_refuses_anything_else(db):
    client = Client()
    ok = client.post(
        "/demo-webhooks/receiver",
        json.dumps({"event": "order.created"}),
        content_type="application/json",
        headers={"webhook-id": "msg_1", "webhook-signature": "v1,x"},
    )
    assert ok.status_code == 200 and ok.json() == {"received": True, "event": "order.created"}
    assert client.get("/demo-webhooks/receiver").status_code == 405
    assert client.post("/demo-webhooks/receiver", "{}", content_type="application/json").status_code == 400
    big = client.post(
        "/demo-webhooks/receiver", "x" * (300 * 1024), content_type="application/json", headers={"webhook-id": "m"}
    )
    assert big.status_code in (400, 413)


@pytest.mark.live
def test_a_demo_event_is_delivered_to_the_receiver_and_shown_in_the_panel(transactional_db, tmp_path):
    """The server serves the receiver it is subscribed to: a webhook test event sent from the
    panel's service is delivered over HTTP (200) and the delivery is in the owner's log."""
    from apps.webhooks import services as webhook_services

    with web_server() as base:
        seed("--base-url", base)
        subscription = WebhookSubscription.objects.get(url=f"{base}/demo-webhooks/receiver")
        delivery = webhook_services.subscription_send_test(subscription=subscription)
        from tests.support.processes import wait_until

        def delivered():
            delivery.refresh_from_db()
            return delivery.status == "succeeded"

        wait_until(delivered, 20, "the test event to reach the demo receiver")
    assert WebhookDelivery.objects.filter(subscription=subscription, status="succeeded").exists()
    owner = Client()
    owner.force_login(subscription.owner.users.get(email="owner@burgers.demo.test"))
    page = owner.get(f"/panel/webhooks/{subscription.pk}").content.decode()
    assert "webhook.test" in page and "/demo-webhooks/receiver" in page
