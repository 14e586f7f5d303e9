"""Django settings for a Celery worker started by a test as a child process
(tests/webhooks/test_webhook_worker_fault.py, bench/webhook_throughput.py): the project's settings plus a
queue of its own, so the child cannot take (or leave) work of anyone else sharing the broker,
and an optional short webhook lease, so a killed worker's delivery becomes due in seconds (with a
shorter receiver timeout, which the lease must outlast)."""

import os

from config.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ["WORKER_QUEUE"]
if os.environ.get("WEBHOOK_LEASE_SECONDS"):
    WEBHOOK_LEASE_SECONDS = float(os.environ["WEBHOOK_LEASE_SECONDS"])
if os.environ.get("WEBHOOK_RECEIVER_TIMEOUT_SECONDS"):
    WEBHOOK_RECEIVER_TIMEOUT_SECONDS = float(os.environ["WEBHOOK_RECEIVER_TIMEOUT_SECONDS"])
# No remote-control (pidbox) queue: a SIGKILLed worker would leave its binding behind.
CELERY_WORKER_ENABLE_REMOTE_CONTROL = False
