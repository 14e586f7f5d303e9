"""Webhook delivery to a real HTTP receiver on loopback: headers and signatures exactly as spec
6.1, retries on the DESIGN.md schedule, auto-pause at 10 consecutive failures, skip while paused."""

import base64
import hashlib
import hmac
import json
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.db import transaction
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from apps.webhooks import services, signing
from apps.webhooks.delivery import RETRY_DELAYS
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookSubscription
from apps.webhooks.tasks import dispatch_due_webhooks, prune_webhook_attempts
from tests import factories
from tests.support.receivers import Receiver, Reply
from tests.support.webhook_events import emit_webhook

PAYLOAD = {"kiosk_id": 7, "kiosk_name": "Front", "location": "Door", "offline_at": "2026-01-01T00:00:00Z"}


@pytest.fixture
def subscription(owner, receiver):
    factories.PanelUserFactory(owner=owner, email="boss@example.test")
    return services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline", "session.started"])


def emit(owner, capture, name="kiosk.offline", payload=PAYLOAD):
    with capture(execute=True), transaction.atomic():
        return emit_webhook(name, payload, owner_id=owner.pk)


def fail_times(receiver, n):
    receiver.script = [Reply(status=500, body=b"boom")] * n


def retry_due(capture, after):
    """Move time past `after` and run the periodic sweep, as beat would."""
    with time_machine.travel(timezone.now() + after + timedelta(seconds=1)), capture(execute=True):
        dispatch_due_webhooks()


def test_delivery_carries_the_spec_headers_and_a_verifiable_signature(
    owner, subscription, receiver, django_capture_on_commit_callbacks
):
    sub, secret = subscription
    event = emit(owner, django_capture_on_commit_callbacks)
    [request] = receiver.received
    delivery = WebhookDelivery.objects.get()
    assert request.headers["Content-Type"] == "application/json"
    assert request.headers["User-Agent"] == "Service-Webhook/1.0"
    assert request.headers["X-Service-Event"] == "kiosk.offline"
    assert request.headers["X-Service-Delivery"] == str(delivery.pk)
    expected = hmac.new(secret.encode(), request.body, hashlib.sha256).hexdigest()
    assert hmac.compare_digest(request.headers["X-Service-Signature"], expected)
    # The Standard Webhooks signature, computed here by its definition rather than by the library
    # the service signs with: the bytes on the wire.
    assert request.headers["webhook-id"] == f"msg_{delivery.pk}"
    signed = f"msg_{delivery.pk}.{request.headers['webhook-timestamp']}.".encode() + request.body
    digest = hmac.new(secret.encode(), signed, hashlib.sha256).digest()
    assert request.headers["webhook-signature"] == "v1," + base64.b64encode(digest).decode()
    envelope = json.loads(request.body)
    assert envelope == {"event": "kiosk.offline", "data": PAYLOAD, "timestamp": envelope["timestamp"]}
    assert envelope["timestamp"] == event.created_at.isoformat().replace("+00:00", "Z")
    sub.refresh_from_db()
    assert sub.last_delivered_at is not None and sub.failure_count == 0
    delivery.refresh_from_db()
    assert delivery.status == "succeeded" and delivery.attempts == 1


def test_standard_webhooks_library_verifies_a_real_delivery(
    owner, subscription, receiver, django_capture_on_commit_callbacks
):
    _, secret = subscription
    emit(owner, django_capture_on_commit_callbacks)
    [request] = receiver.received
    verifier = Webhook(signing.standard_webhooks_key(secret))
    assert verifier.verify(request.body, request.headers) == json.loads(request.body)
    tampered = request.body.replace(b"Front", b"Back!")
    with pytest.raises(Exception):  # noqa: B017 - the library raises its own WebhookVerificationError
        verifier.verify(tampered, request.headers)


def test_failed_attempt_is_logged_and_retried_with_the_same_delivery_id(
    owner, subscription, receiver, django_capture_on_commit_callbacks
):
    fail_times(receiver, 1)
    emit(owner, django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    assert delivery.status == "pending" and delivery.attempts == 1
    attempt = WebhookAttempt.objects.get()
    assert attempt.succeeded is False and attempt.status_code == 500 and attempt.response_excerpt == "boom"
    assert timedelta(seconds=9) < delivery.next_attempt_at - attempt.attempted_at <= timedelta(seconds=11)

    with django_capture_on_commit_callbacks(execute=True):
        assert dispatch_due_webhooks() == 0  # not due yet
    retry_due(django_capture_on_commit_callbacks, RETRY_DELAYS[0])
    assert [r.headers["X-Service-Delivery"] for r in receiver.received] == [str(delivery.pk)] * 2
    assert receiver.received[0].body == receiver.received[1].body
    delivery.refresh_from_db()
    assert delivery.status == "succeeded" and delivery.attempts == 2
    assert WebhookSubscription.objects.get().failure_count == 0  # a success resets the count


def test_receiver_answering_after_the_timeout_is_a_failure(
    owner, subscription, receiver, django_capture_on_commit_callbacks, settings
):
    settings.WEBHOOK_RECEIVER_TIMEOUT_SECONDS = 1  # the rule of 5 s, shortened
    receiver.script = [Reply(delay=3)]
    emit(owner, django_capture_on_commit_callbacks)
    attempt = WebhookAttempt.objects.get()
    assert attempt.succeeded is False and "within 1 s" in attempt.error
    assert 900 <= attempt.duration_ms < 2500  # cut at the timeout, before the answer came


def test_connection_refused_is_a_failure(owner, django_capture_on_commit_callbacks):
    with Receiver() as closed:
        url = closed.url
    services.subscription_create(owner=owner, url=url, events=["kiosk.offline"])
    emit(owner, django_capture_on_commit_callbacks)
    attempt = WebhookAttempt.objects.get()
    assert attempt.succeeded is False and attempt.status_code is None
    assert attempt.error.startswith("connection error")


def test_ten_consecutive_failures_pause_the_subscription_and_tell_the_owner(
    owner, subscription, receiver, django_capture_on_commit_callbacks
):
    sub, _ = subscription
    receiver.default = Reply(status=503)
    for n in range(1, 10):
        emit(owner, django_capture_on_commit_callbacks)
        sub.refresh_from_db()
        assert (sub.failure_count, sub.active) == (n, True)
    assert mail.outbox == []
    emit(owner, django_capture_on_commit_callbacks)
    sub.refresh_from_db()
    assert (sub.failure_count, sub.active) == (10, False)
    assert sub.paused_at is not None and sub.last_failed_at is not None
    assert [m.to for m in mail.outbox] == [["boss@example.test"]]
    assert WebhookDelivery.objects.filter(status="pending").count() == 0  # retries stop while paused

    sent_before = len(receiver.received)
    emit(owner, django_capture_on_commit_callbacks)
    assert len(receiver.received) == sent_before
    skipped = WebhookDelivery.objects.order_by("-pk").first()
    assert skipped.status == "skipped"

    receiver.default = Reply(status=200)
    services.subscription_reenable(subscription=sub)
    with django_capture_on_commit_callbacks(execute=True):
        services.delivery_resend(delivery=skipped)
    assert receiver.received[-1].headers["X-Service-Delivery"] == str(skipped.pk)
    skipped.refresh_from_db()
    assert skipped.status == "succeeded"


def test_a_success_between_failures_resets_the_count(owner, subscription, receiver, django_capture_on_commit_callbacks):
    sub, _ = subscription
    receiver.script = [Reply(status=500)] * 9 + [Reply(status=204)] + [Reply(status=500)]
    for _ in range(11):
        emit(owner, django_capture_on_commit_callbacks)
    sub.refresh_from_db()
    assert (sub.failure_count, sub.active) == (1, True)


def test_retry_schedule_then_give_up(owner, subscription, receiver, django_capture_on_commit_callbacks):
    receiver.default = Reply(status=500)
    emit(owner, django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    for attempts, delay in enumerate(RETRY_DELAYS, start=1):
        delivery.refresh_from_db()
        assert (delivery.attempts, delivery.status) == (attempts, "pending")
        assert abs((delivery.next_attempt_at - timezone.now()) - delay) < timedelta(seconds=5)
        # Travel by moving the delivery due instead of the clock, to keep "now" real.
        WebhookDelivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            dispatch_due_webhooks()
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.status) == (len(RETRY_DELAYS) + 1, "failed")
    assert len(receiver.received) == len(RETRY_DELAYS) + 1


def test_429_is_retried_no_sooner_than_retry_after(owner, subscription, receiver, django_capture_on_commit_callbacks):
    receiver.script = [Reply(status=429, headers={"Retry-After": "120"})]
    emit(owner, django_capture_on_commit_callbacks)
    delivery = WebhookDelivery.objects.get()
    assert delivery.next_attempt_at - timezone.now() > timedelta(seconds=115)


def test_nothing_is_sent_for_a_rolled_back_change(owner, subscription, receiver, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(RuntimeError), transaction.atomic():
        emit_webhook("kiosk.offline", PAYLOAD, owner_id=owner.pk)
        raise RuntimeError("the change failed")
    assert receiver.received == [] and not WebhookDelivery.objects.exists()


def test_only_subscribed_events_of_the_same_owner_are_delivered(
    owner, subscription, receiver, other_business, django_capture_on_commit_callbacks
):
    emit(owner, django_capture_on_commit_callbacks, name="session.ended", payload={"session_id": 1})
    emit(other_business.owner, django_capture_on_commit_callbacks)
    assert receiver.received == []


def test_a_real_session_start_reaches_the_receiver(
    owner, subscription, receiver, kiosk, kiosk_client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = kiosk_client.post(
            "/api/public/sessions/start",
            {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
            content_type="application/json",
        )
    [request] = receiver.received
    data = json.loads(request.body)["data"]
    assert data["session_public_id"] == response.json()["session_id"] and isinstance(data["session_id"], int)


def test_delivery_time_check_refuses_a_name_that_now_resolves_privately(
    owner, subscription, receiver, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    emit(owner, django_capture_on_commit_callbacks)
    assert receiver.received == []
    assert WebhookAttempt.objects.get().error.startswith("refused target")


def test_test_event_goes_to_that_subscription_only(owner, subscription, receiver, django_capture_on_commit_callbacks):
    other_sub, _ = services.subscription_create(owner=owner, url=receiver.url + "/other", events=["kiosk.offline"])
    with django_capture_on_commit_callbacks(execute=True):
        services.subscription_send_test(subscription=subscription[0])
    [request] = receiver.received
    assert request.headers["X-Service-Event"] == "webhook.test" and request.path == "/hooks"


def test_attempt_logs_older_than_30_days_are_pruned(owner, subscription, receiver, django_capture_on_commit_callbacks):
    emit(owner, django_capture_on_commit_callbacks)
    WebhookAttempt.objects.update(attempted_at=timezone.now() - timedelta(days=31))
    emit(owner, django_capture_on_commit_callbacks)
    assert prune_webhook_attempts() == 1
    assert WebhookAttempt.objects.count() == 1
