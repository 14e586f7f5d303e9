"""A Celery worker killed with SIGKILL in the middle of a webhook delivery loses nothing.

A real worker process (`celery -A config.celery:app worker -P solo`) runs against this test's
PostgreSQL database and the Redis broker, on a queue of its own. Events are committed, the
worker starts sending them to a real receiver on loopback, and is killed while the receiver holds
one request open. A new worker takes the rest of the queue; the killed delivery (its task message
is stuck unacknowledged in Redis, its lease is still held) is picked up by the due-dispatch sweep
once the lease runs out. Every committed event must reach the receiver at least once, and a
duplicate must carry the same X-Service-Delivery and the same bytes.

Runs only on the production stack (DATABASE_URL and REDIS_URL set, as in CI).
"""

import json
import os
import time
import uuid
from collections import defaultdict

import pytest
from django.db import transaction

from apps.webhooks import services, signing
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.tasks import dispatch_due_webhooks
from config.celery import app as celery_app
from tests import factories
from tests.support.processes import wait_until
from tests.support.receivers import Receiver, Reply
from tests.support.webhook_events import emit_webhook
from tests.support.worker import Worker, remove_queue

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="needs a real Celery worker on Redis and PostgreSQL: set DATABASE_URL and REDIS_URL (CI does)",
    ),
    pytest.mark.live,
]

EVENTS = 12
KILL_AT = 4  # the receiver holds the 4th request open; the worker dies meanwhile
DEADLINE_SECONDS = 45  # for the scenario, not counting the workers' start-ups (seconds each on a loaded machine)
# The workers' receiver timeout and lease, shortened from 5 s and 60 s: the lease still outlasts
# an attempt, so a live worker's delivery is never due for the sweep while it is being sent.
RECEIVER_TIMEOUT_SECONDS, LEASE_SECONDS = 3.0, 4.0
HOLD_SECONDS = 4.0  # the held request's answer would come after the receiver timeout: never seen


@pytest.mark.django_db(transaction=True)
def test_every_committed_event_is_delivered_at_least_once_across_a_killed_worker(settings):
    started = time.monotonic()
    queue = f"kiosk-wh-fault-{uuid.uuid4().hex[:12]}"
    settings.TASK_MODE = "celery"
    previous_queue = celery_app.conf.task_default_queue
    celery_app.conf.task_default_queue = queue
    owner = factories.BusinessFactory().owner
    workers: list[Worker] = []
    try:
        with Receiver() as receiver:
            # Each request is answered after a short pause; the KILL_AT-th is held past the timeout.
            receiver.default = Reply(delay=0.2)
            receiver.script = [Reply(delay=0.2)] * (KILL_AT - 1) + [Reply(delay=HOLD_SECONDS)]
            subscription, secret = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])

            starting = time.monotonic()
            first = Worker(queue, "fault-first", LEASE_SECONDS, RECEIVER_TIMEOUT_SECONDS)
            workers.append(first)
            first.wait_ready()
            start_ups = time.monotonic() - starting
            for n in range(EVENTS):
                with transaction.atomic():  # committed for real: the task is queued on commit
                    emit_webhook(
                        "kiosk.offline",
                        {
                            "kiosk_id": n,
                            "kiosk_name": f"K{n}",
                            "location": "Door",
                            "offline_at": "2026-01-01T00:00:00Z",
                        },
                        owner_id=owner.pk,
                    )
            committed = set(WebhookDelivery.objects.filter(subscription=subscription).values_list("pk", flat=True))
            assert len(committed) == EVENTS

            wait_until(lambda: len(receiver.received) >= KILL_AT, 20, f"{KILL_AT} requests at the receiver")
            in_flight = int(receiver.received[KILL_AT - 1].headers["X-Service-Delivery"])
            first.kill()  # SIGKILL while the receiver still holds request KILL_AT open
            killed_delivery = WebhookDelivery.objects.get(pk=in_flight)
            assert killed_delivery.status == "pending" and killed_delivery.lease_until is not None

            starting = time.monotonic()
            second = Worker(queue, "fault-second", LEASE_SECONDS, RECEIVER_TIMEOUT_SECONDS)
            workers.append(second)
            second.wait_ready()
            start_ups += time.monotonic() - starting

            def all_delivered() -> bool:
                dispatch_due_webhooks()  # the periodic sweep, as beat runs it
                return (
                    not WebhookDelivery.objects.filter(subscription=subscription).exclude(status="succeeded").exists()
                )

            remaining = DEADLINE_SECONDS - (time.monotonic() - started - start_ups)
            wait_until(all_delivered, remaining, "every delivery to succeed", every=0.5)

            by_delivery: dict[int, list] = defaultdict(list)
            for request in receiver.received:
                by_delivery[int(request.headers["X-Service-Delivery"])].append(request)
    finally:
        for worker in workers:
            worker.stop()
        celery_app.conf.task_default_queue = previous_queue
        remove_queue(queue)

    assert set(by_delivery) == committed, "an event never reached the receiver"
    assert len(by_delivery[in_flight]) >= 2, "the delivery in flight at the kill was not sent again"
    for delivery_id, requests in by_delivery.items():
        bodies = {r.body for r in requests}
        assert len(bodies) == 1, f"delivery {delivery_id} was resent with different bytes"
        assert {r.headers["X-Service-Signature"] for r in requests} == {signing.service_signature(secret, bodies.pop())}
    payload_ids = sorted(json.loads(r[0].body)["data"]["kiosk_id"] for r in by_delivery.values())
    assert payload_ids == list(range(EVENTS))
    assert time.monotonic() - started - start_ups < 60
