"""Run by tests/webhooks/test_webhook_autopause_exact.py as a child process on the embedded default (a
SQLite file under VAR_DIR, TASK_MODE "thread": drains on the in-process pool): commit a burst of
events to a failing receiver, wait for the pause, print what the receiver and database saw as
JSON. A child, because the test suite's in-memory SQLite database answers concurrent threads
with "database table is locked" where the embedded file database waits for its lock."""

import json
import os
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.conf import settings  # noqa: E402
from django.db import transaction  # noqa: E402

from apps.core import jobs  # noqa: E402
from apps.webhooks import services  # noqa: E402
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookSubscription  # noqa: E402
from tests import factories  # noqa: E402
from tests.support import pools  # noqa: E402
from tests.support.receivers import Receiver, Reply  # noqa: E402
from tests.support.schema import tables_from_models  # noqa: E402
from tests.support.webhook_events import emit_webhook  # noqa: E402

PAYLOAD = {"kiosk_id": 1, "kiosk_name": "K", "location": "Door", "offline_at": "2026-01-01T00:00:00Z"}


def main() -> None:
    assert settings.TASK_MODE == "thread" and settings.DATABASES["default"]["ENGINE"].endswith("sqlite3")
    tables_from_models()
    owner = factories.BusinessFactory().owner
    with Receiver() as receiver:
        receiver.default = Reply(status=500, delay=0.1, body=b"down")
        subscription, _ = services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
        for _ in range(int(os.environ.get("EVENTS", "40"))):
            with transaction.atomic():  # each commit queues a drain on the pool
                emit_webhook("kiosk.offline", PAYLOAD, owner_id=owner.pk)
            time.sleep(0.005)  # a burst spread over the first attempts: drains overlap
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if not WebhookDelivery.objects.filter(subscription=subscription, status="pending").exists():
                break
            time.sleep(0.1)
        pools.idle(jobs._pool)  # every drain that could still be sending has returned
        subscription = WebhookSubscription.objects.get(pk=subscription.pk)
        print(
            json.dumps(
                {
                    "received": len(receiver.received),
                    "failure_count": subscription.failure_count,
                    "active": subscription.active,
                    "attempts": WebhookAttempt.objects.count(),
                    "pending": WebhookDelivery.objects.filter(status="pending").count(),
                }
            )
        )


if __name__ == "__main__":
    main()
