"""What a receiver cannot do to a worker, and the bookkeeping shortcuts of busy subscriptions:
a trickled answer is cut at 5 s overall, a connection that lands on a refused address sends
nothing, a huge answer is cut to its excerpt, cookies are not kept between deliveries, and a
success writes the subscription row only when its meaning changes or once a second."""

import socket
import threading
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from apps.webhooks import services
from apps.webhooks.models import WebhookAttempt, WebhookSubscription
from tests.support.receivers import Reply
from tests.support.webhook_events import emit_webhook

PAYLOAD = {"kiosk_id": 7, "kiosk_name": "Front", "location": "Door", "offline_at": "2026-01-01T00:00:00Z"}


def emit(owner, capture):
    with capture(execute=True), transaction.atomic():
        emit_webhook("kiosk.offline", PAYLOAD, owner_id=owner.pk)


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


class TricklingReceiver:
    """Accepts, reads the request, then sends its answer a byte every 0.25 s (never finishing
    within the 1 s the test allows, though no single read waits 1 s)."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hooks"
        self.requests = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        try:
            conn, _ = self.sock.accept()
        except OSError:
            return
        conn.recv(65536)
        self.requests += 1
        try:
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok":
                conn.sendall(bytes([byte]))
                time.sleep(0.25)
        except OSError:
            pass  # the sender cut the connection
        finally:
            conn.close()

    def close(self):
        self.sock.close()


def test_an_answer_trickled_past_the_timeout_is_cut_and_failed(owner, django_capture_on_commit_callbacks, settings):
    settings.WEBHOOK_RECEIVER_TIMEOUT_SECONDS = 1  # the rule of 5 s, shortened
    trickler = TricklingReceiver()
    try:
        services.subscription_create(owner=owner, url=trickler.url, events=["kiosk.offline"])
        started = time.monotonic()
        emit(owner, django_capture_on_commit_callbacks)
        elapsed = time.monotonic() - started
    finally:
        trickler.close()
    attempt = WebhookAttempt.objects.get()
    assert trickler.requests == 1
    assert attempt.succeeded is False and "within 1 s" in attempt.error
    assert elapsed < 2.5 and attempt.duration_ms < 2000  # the whole answer takes 10 s


def test_a_connection_that_lands_on_a_private_address_sends_nothing(
    owner, subscription, receiver, settings, monkeypatch, django_capture_on_commit_callbacks
):
    """DNS rebinding: the name passed the check (here: the check is skipped, as if it had
    resolved to a public address) but the connect reaches loopback. Nothing is sent."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    monkeypatch.setattr("apps.webhooks.targets.check_url", lambda url, **kwargs: None)
    emit(owner, django_capture_on_commit_callbacks)
    assert receiver.received == []
    attempt = WebhookAttempt.objects.get()
    assert attempt.succeeded is False and attempt.error.startswith("connection error")
