"""What a receiver cannot do to a worker, and the bookkeeping shortcuts of busy subscriptions:
a huge answer is cut to its excerpt, cookies are not kept between deliveries, and a success
writes the subscription row only when its meaning changes or once a second."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.core import events
from apps.webhooks import services
from apps.webhooks.models import WebhookAttempt, WebhookSubscription
from tests.receivers import Receiver, Reply

PAYLOAD = {"kiosk_id": 7, "kiosk_name": "Front", "location": "Door", "offline_at": "2026-01-01T00:00:00Z"}


@pytest.fixture
def receiver():
    with Receiver() as running:
        yield running


@pytest.fixture
def subscription(owner, receiver):
    return services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])[0]


def emit(owner, capture):
    with capture(execute=True), transaction.atomic():
        events.emit("kiosk.offline", PAYLOAD, owner_id=owner.pk)


def test_a_huge_answer_is_cut_to_a_1000_character_excerpt(
    owner, subscription, receiver, django_capture_on_commit_callbacks
):
    receiver.script = [Reply(status=500, body=b"x" * 5_000_000)]
    emit(owner, django_capture_on_commit_callbacks)
    attempt = WebhookAttempt.objects.get()
    assert attempt.succeeded is False and attempt.status_code == 500
    assert attempt.response_excerpt == "x" * 1000


def test_cookies_set_by_a_receiver_are_not_sent_back(owner, subscription, receiver, django_capture_on_commit_callbacks):
    receiver.script = [Reply(headers={"Set-Cookie": "tracker=1; Path=/"})]
    emit(owner, django_capture_on_commit_callbacks)
    emit(owner, django_capture_on_commit_callbacks)
    assert len(receiver.received) == 2
    assert "Cookie" not in receiver.received[1].headers


def test_a_success_resets_the_failure_count_at_once(owner, subscription, receiver, django_capture_on_commit_callbacks):
    receiver.script = [Reply(status=500)]
    emit(owner, django_capture_on_commit_callbacks)
    subscription.refresh_from_db()
    assert subscription.failure_count == 1
    emit(owner, django_capture_on_commit_callbacks)  # within the same second
    subscription.refresh_from_db()
    assert subscription.failure_count == 0 and subscription.last_delivered_at is not None


def test_last_delivered_at_is_refreshed_at_most_once_a_second(
    owner, subscription, receiver, django_capture_on_commit_callbacks
):
    emit(owner, django_capture_on_commit_callbacks)
    assert WebhookSubscription.objects.get().last_delivered_at is not None
    just_now = timezone.now()
    WebhookSubscription.objects.update(last_delivered_at=just_now)
    emit(owner, django_capture_on_commit_callbacks)  # succeeds well within a second of just_now
    assert WebhookSubscription.objects.get().last_delivered_at == just_now
    WebhookSubscription.objects.update(last_delivered_at=just_now - timedelta(seconds=2))
    emit(owner, django_capture_on_commit_callbacks)
    assert WebhookSubscription.objects.get().last_delivered_at > just_now
