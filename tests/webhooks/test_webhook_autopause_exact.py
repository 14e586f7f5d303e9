"""Auto-pause is exact under concurrency: however many batches of one subscription are sent at once,
a failing receiver gets exactly 10 attempts, the subscription's failure_count ends at 10 and it is
paused; nothing is attempted after the pause. Tried with several threads draining at once
(PostgreSQL), with the embedded thread pool, and with several real Celery worker processes."""

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.core import jobs
from apps.webhooks import batch, services
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookFailureAllowance, WebhookSubscription
from config.celery import app as celery_app
from tests import factories
from tests.support import pools
from tests.support.processes import ROOT, wait_until
from tests.support.receivers import Receiver, Reply
from tests.support.webhook_events import emit_webhook
from tests.support.worker import Worker, remove_queue

PAYLOAD = {"kiosk_id": 1, "kiosk_name": "K", "location": "Door", "offline_at": "2026-01-01T00:00:00Z"}


def failing_receiver() -> Receiver:
    receiver = Receiver()
    receiver.default = Reply(status=500, delay=0.03, body=b"down")  # slow enough for batches to overlap
    return receiver


def commit_events(owner, count: int) -> None:
    for _ in range(count):
        with transaction.atomic():
            emit_webhook("kiosk.offline", PAYLOAD, owner_id=owner.pk)


def assert_paused_after_exactly_ten(receiver: Receiver, subscription: WebhookSubscription) -> None:
    subscription.refresh_from_db()
    assert len(receiver.received) == 10, f"{len(receiver.received)} attempts reached the receiver"
    assert (subscription.failure_count, subscription.active) == (10, False)
    assert subscription.paused_at is not None
    assert WebhookAttempt.objects.filter(delivery__subscription=subscription).count() == 10
    assert not WebhookDelivery.objects.filter(subscription=subscription, status="pending").exists()
    assert not WebhookFailureAllowance.objects.filter(subscription=subscription).exists()


def test_a_drain_finding_the_allowance_used_up_claims_nothing_and_an_expired_one_stops_counting(
    owner, receiver, monkeypatch
):
    monkeypatch.setattr("apps.webhooks.outbox.jobs.enqueue_on_commit", lambda *args: None)
    subscription, _ = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
    WebhookSubscription.objects.filter(pk=subscription.pk).update(failure_count=7)
    commit_events(owner, 3)
    in_flight = factories.WebhookFailureAllowanceFactory(
        subscription=subscription, failures=3, until=timezone.now() + timedelta(seconds=60)
    )
    assert batch.deliver(subscription.pk).claimed == 0  # 7 counted + 3 in flight: nothing left
    assert receiver.received == []
    assert set(WebhookDelivery.objects.values_list("status", "lease_until")) == {("pending", None)}

    # The batch holding it died: once its lease has ended its allowance no longer counts.
    WebhookFailureAllowance.objects.filter(pk=in_flight.pk).update(until=timezone.now() - timedelta(seconds=1))
    result = batch.deliver(subscription.pk)
    assert result.claimed == 3 and len(receiver.received) == 3
    assert not WebhookFailureAllowance.objects.exists()  # the expired one dropped, this batch's given back
    assert WebhookSubscription.objects.get(pk=subscription.pk).failure_count == 0


@pytest.mark.postgres  # concurrent transactions and row locks
@pytest.mark.django_db(transaction=True)
def test_threads_draining_one_subscription_at_once_pause_it_after_exactly_ten_attempts(monkeypatch):
    owner = factories.BusinessFactory().owner
    monkeypatch.setattr("apps.webhooks.outbox.jobs.enqueue_on_commit", lambda *args: None)  # drained below
    with failing_receiver() as receiver:
        subscription, _ = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
        commit_events(owner, 60)
        drainers = 6
        start = threading.Barrier(drainers)
        errors: list[Exception] = []

        def drain_until_paused() -> None:
            try:
                start.wait()
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    batch.deliver(subscription.pk, limit=5)
                    if not WebhookSubscription.objects.filter(pk=subscription.pk, active=True).exists():
                        return
                    time.sleep(0.005)
                raise AssertionError("the subscription was never paused")
            except Exception as exc:  # collected and asserted below
                errors.append(exc)
            finally:
                connection.close()

        threads = [threading.Thread(target=drain_until_paused) for _ in range(drainers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    # Each send waits for the receiver's answer, which it records first: once every drainer has
    # returned, every request that will ever come has been counted.
    assert not any(thread.is_alive() for thread in threads)
    assert errors == []
    assert_paused_after_exactly_ten(receiver, subscription)


@pytest.mark.postgres  # the suite's in-memory SQLite cannot take concurrent threads; see below
@pytest.mark.django_db(transaction=True)
def test_the_thread_pool_pauses_a_burst_after_exactly_ten_attempts(settings):
    settings.TASK_MODE = "thread"  # every committed event queues a drain on the in-process pool
    owner = factories.BusinessFactory().owner
    with failing_receiver() as receiver:
        subscription, _ = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
        commit_events(owner, 40)

        def settled() -> bool:
            subscription.refresh_from_db()
            busy = WebhookDelivery.objects.filter(subscription=subscription, status="pending").exists()
            return not subscription.active and not busy

        wait_until(settled, 30, "the pause")
        # Every drain that could still be sending has returned (a later one finds nothing pending).
        pools.idle(jobs._pool)
    assert_paused_after_exactly_ten(receiver, subscription)


def test_the_embedded_default_pauses_a_burst_after_exactly_ten_attempts(tmp_path):
    """The embedded default itself (SQLite file, thread pool), in a child process."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "TASK_MODE", "DJANGO_SETTINGS_MODULE"}
        and not key.startswith("PYTEST")
    }
    env.update(APP_ENV="test", VAR_DIR=str(tmp_path / "var"), PYTHONPATH=str(ROOT))
    child = subprocess.run(
        [sys.executable, "-m", "tests.support.embedded_autopause"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert child.returncode == 0, child.stderr[-3000:]
    seen = json.loads(child.stdout.strip().splitlines()[-1])
    assert seen == {"received": 10, "failure_count": 10, "active": False, "attempts": 10, "pending": 0}, seen


@pytest.mark.live
@pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
    reason="needs real Celery workers on Redis and PostgreSQL: set DATABASE_URL and REDIS_URL (CI does)",
)
@pytest.mark.django_db(transaction=True)
def test_several_celery_workers_pause_a_burst_after_exactly_ten_attempts(settings):
    queue = f"kiosk-wh-pause-{uuid.uuid4().hex[:12]}"
    settings.TASK_MODE = "celery"
    previous_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    owner = factories.BusinessFactory().owner
    workers: list[Worker] = []
    try:
        with failing_receiver() as receiver:
            subscription, _ = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
            workers = [Worker(queue, f"pause-{n}", lease_seconds=None) for n in range(3)]
            for worker in workers:
                worker.wait_ready()
            # Over two full batches at once: each full claim queues the next drain before it
            # sends, so the workers send batches of this one subscription in parallel.
            with transaction.atomic():
                for _ in range(3 * batch.BATCH_SIZE):
                    emit_webhook("kiosk.offline", PAYLOAD, owner_id=owner.pk)

            def settled() -> bool:
                return not WebhookDelivery.objects.filter(subscription=subscription, status="pending").exists()

            wait_until(settled, 45, "the pause", every=0.2)
            # A worker stopped by SIGTERM finishes the task in hand, whose sends wait for their
            # answers: once all have exited, every request that will ever come has been counted.
            for worker in workers:
                worker.stop()
                assert worker.process.returncode == 0, "a worker was killed, not stopped warm"
    finally:
        for worker in workers:
            worker.stop()
        celery_app.conf.task_default_queue = previous_queue
        remove_queue(queue)
    assert_paused_after_exactly_ten(receiver, subscription)
