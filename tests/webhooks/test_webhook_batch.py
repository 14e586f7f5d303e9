"""Batched webhook delivery: one drain task sends a subscription's due deliveries over one
keep-alive connection, in event order, with one claim and one bookkeeping transaction; a failure
in the middle affects only that delivery (and the failure count); a pause stops the rest of the
batch; drains are queued once per subscription, not once per event."""

import json
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import celery.app.task
import pytest
from django.core import mail
from django.db import connection, transaction
from django.utils import timezone

from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookSubscription
from apps.webhooks.tasks import deliver_webhook, dispatch_due_webhooks, drain_subscription, request_drain
from tests import factories
from tests.support.webhook_events import emit_webhook


class KeepAliveReceiver:
    """HTTP/1.1 receiver that remembers, per request, the client's port (one port = one
    connection), the delivery id and the kiosk id of the body; answers from `statuses`."""

    def __init__(self, statuses=()):
        self.requests: list[tuple[int, str, bytes]] = []
        self.statuses = list(statuses)
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # an answer written in pieces would wait on delayed ACKs
            wbufsize = 1 << 16  # status, headers and body leave in one write

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.requests.append((self.client_address[1], self.headers["X-Service-Delivery"], body))
                status = receiver.statuses.pop(0) if receiver.statuses else 200
                self.send_response(status)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    running = KeepAliveReceiver()
    yield running
    running.close()


@pytest.fixture
def subscription(subscription, owner):
    """conftest's subscription, and a panel user of its owner."""
    factories.PanelUserFactory(owner=owner, email="boss@example.test")
    return subscription


@pytest.fixture
def lost_tasks(monkeypatch):
    """Commit events without running their drain, so a test decides when one runs."""
    monkeypatch.setattr("apps.webhooks.outbox.jobs.enqueue_on_commit", lambda *args: None)


def emit_many(owner, count):
    for n in range(count):
        with transaction.atomic():
            emit_webhook("kiosk.offline", {"kiosk_id": n}, owner_id=owner.pk)
    return list(WebhookDelivery.objects.order_by("pk"))


def kiosk_ids(receiver):
    return [json.loads(body)["data"]["kiosk_id"] for _, _, body in receiver.requests]


def test_a_burst_goes_out_in_one_task_over_one_connection_in_event_order(
    owner, subscription, receiver, lost_tasks, django_assert_max_num_queries
):
    deliveries = emit_many(owner, 20)
    # The same 16 queries (savepoints included) for 1 or 100 deliveries on PostgreSQL, three of
    # them the failure allowance (read, take, give back); SQLite's claim takes one conditional
    # UPDATE per delivery.
    with django_assert_max_num_queries(16 if connection.vendor == "postgresql" else 16 + 20):
        drain_subscription.apply(args=[subscription.pk], throw=True)
    assert kiosk_ids(receiver) == list(range(20))
    assert [delivery_id for _, delivery_id, _ in receiver.requests] == [str(d.pk) for d in deliveries]
    assert len({port for port, _, _ in receiver.requests}) == 1, "the batch did not reuse one connection"
    assert set(WebhookDelivery.objects.values_list("status", "attempts")) == {("succeeded", 1)}
    assert WebhookAttempt.objects.filter(succeeded=True).count() == 20
    subscription.refresh_from_db()
    assert subscription.failure_count == 0 and subscription.last_delivered_at is not None


def test_a_failure_in_the_middle_of_a_batch_affects_only_that_delivery(owner, subscription, receiver, lost_tasks):
    receiver.statuses = [200, 200, 500, 200, 200]
    deliveries = emit_many(owner, 5)
    drain_subscription.apply(args=[subscription.pk], throw=True)
    statuses = dict(WebhookDelivery.objects.values_list("pk", "status"))
    assert [statuses[d.pk] for d in deliveries] == ["succeeded", "succeeded", "pending", "succeeded", "succeeded"]
    failed = WebhookDelivery.objects.get(pk=deliveries[2].pk)
    attempt = WebhookAttempt.objects.get(delivery=failed)
    assert failed.attempts == 1 and not attempt.succeeded and attempt.status_code == 500
    assert timedelta(seconds=9) < failed.next_attempt_at - attempt.attempted_at <= timedelta(seconds=11)
    subscription.refresh_from_db()
    assert subscription.failure_count == 0  # the successes after it reset the count
    assert subscription.last_failed_at is not None and subscription.active


def test_failures_at_the_end_of_a_batch_are_counted_one_per_attempt(owner, subscription, receiver, lost_tasks):
    receiver.statuses = [200, 500, 500]
    emit_many(owner, 3)
    drain_subscription.apply(args=[subscription.pk], throw=True)
    subscription.refresh_from_db()
    assert subscription.failure_count == 2


def test_a_pause_in_the_middle_of_a_batch_skips_the_rest(
    owner, subscription, receiver, lost_tasks, django_capture_on_commit_callbacks
):
    WebhookSubscription.objects.filter(pk=subscription.pk).update(failure_count=8)
    receiver.statuses = [503] * 10
    deliveries = emit_many(owner, 5)
    with django_capture_on_commit_callbacks(execute=True):  # the owner is emailed on commit
        drain_subscription.apply(args=[subscription.pk], throw=True)
    assert len(receiver.requests) == 2  # failures 9 and 10, then the pause stops the batch
    subscription.refresh_from_db()
    assert (subscription.failure_count, subscription.active) == (10, False)
    statuses = dict(WebhookDelivery.objects.values_list("pk", "status"))
    assert [statuses[d.pk] for d in deliveries] == ["skipped"] * 5  # the 2 tried stop retrying too
    assert WebhookAttempt.objects.count() == 2
    assert [m.to for m in mail.outbox] == [["boss@example.test"]]


def test_the_deliver_task_still_sends_the_one_delivery_it_names(owner, subscription, receiver, lost_tasks):
    first, second = emit_many(owner, 2)
    deliver_webhook.apply(args=[second.pk], throw=True)
    assert [delivery_id for _, delivery_id, _ in receiver.requests] == [str(second.pk)]
    assert WebhookDelivery.objects.get(pk=first.pk).status == "pending"


@pytest.fixture
def published(monkeypatch, settings):
    """Celery mode with the broker replaced by a list of (task name, args) published."""
    settings.TASK_MODE = "celery"
    sent = []
    monkeypatch.setattr(
        celery.app.task.Task, "apply_async", lambda self, args=None, kwargs=None, **o: sent.append((self.name, args))
    )
    return sent


def test_a_burst_of_events_queues_one_drain_until_it_starts(
    owner, subscription, published, django_capture_on_commit_callbacks
):
    for n in range(5):
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            emit_webhook("kiosk.offline", {"kiosk_id": n}, owner_id=owner.pk)
    assert published == [("webhooks.drain", (subscription.pk,))]

    # The sweep leaves a subscription alone while its drain is queued and its work is fresh...
    assert dispatch_due_webhooks() == 0 and len(published) == 1
    # ...but queues another once that work has waited too long (the queued one looks lost).
    WebhookDelivery.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=30))
    assert dispatch_due_webhooks() == 5
    assert published[-1] == ("webhooks.drain", (subscription.pk,)) and len(published) == 2


def test_a_started_drain_lets_the_next_event_queue_another(owner, subscription, published, receiver, settings):
    with transaction.atomic():
        emit_webhook("kiosk.offline", {"kiosk_id": 1}, owner_id=owner.pk)
    # (the test's transaction never commits: the on-commit publish is made by hand below)
    assert request_drain(subscription.pk) and len(published) == 1
    assert not request_drain(subscription.pk) and len(published) == 1  # already queued
    drain_subscription.apply(args=[subscription.pk], throw=True)  # the worker starts it: mark cleared
    assert kiosk_ids(receiver) == [1]
    assert request_drain(subscription.pk) and len(published) == 2
