"""A prefork Celery worker (the Procfile's pool) keeps its PostgreSQL connection from one task to
the next: Celery's Django fixup would close the connection pool around every task (settings
CELERY_DB_REUSE_MAX says why), a fresh connection per job.

A real `celery worker` (prefork, one child) against this test's database and the Redis broker
runs a task that records which PostgreSQL backend served it: eight tasks are served by the pool's
first two connections at most.

Runs only on the production stack (DATABASE_URL and REDIS_URL set, as in CI).
"""

import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache

from config.celery import app as celery_app
from tests.support.processes import ROOT, wait_until
from tests.support.worker import database_url, remove_queue

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="needs a real Celery worker on Redis and PostgreSQL: set DATABASE_URL and REDIS_URL (CI does)",
    ),
    pytest.mark.live,
]

TASKS = 8


@pytest.mark.django_db(transaction=True)
def test_a_prefork_worker_keeps_its_postgresql_connections_from_task_to_task():
    queue = f"kiosk-conn-{uuid.uuid4().hex[:12]}"
    key = f"worker-probe-{uuid.uuid4().hex}"
    log = Path(tempfile.mkstemp(prefix="worker-probe-", suffix=".log")[1])
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "TASK_MODE": "celery",
        "CACHE_KEY_PREFIX": f"{settings.CACHE_KEY_PREFIX}-probe",
        "DJANGO_SETTINGS_MODULE": "tests.operations.worker_probe",
        "WORKER_QUEUE": queue,
        "WEBHOOK_SECRET_KEYS": ",".join(settings.WEBHOOK_SECRET_KEYS),
        "PYTHONPATH": str(ROOT),
    }
    argv = [
        str(Path(sys.executable).parent / "celery"),
        *("-A", "config.celery:app", "worker", "-P", "prefork", "--concurrency=1", "--loglevel=INFO"),
        *("-Q", queue, "-n", f"probe-{uuid.uuid4().hex[:8]}@%h"),
        *("--without-gossip", "--without-mingle", "--without-heartbeat"),
    ]
    with log.open("wb") as out:
        worker = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    client = cache.client  # FailOpenRedisCache's: the list is read raw, as the task writes it
    try:
        wait_until(lambda: b" ready." in log.read_bytes() or worker.poll() is not None, 60, log.read_text)
        assert worker.poll() is None, log.read_text()
        for n in range(TASKS):
            celery_app.send_task("tests.worker_probe", args=[key], queue=queue)
            # one at a time: each task runs after the previous one ended (its postrun included)
            wait_until(lambda n=n: client.llen(key) > n, 30, lambda: f"task {n}:\n{log.read_text()[-3000:]}")
        backends = [int(pid) for pid in client.lrange(key, 0, -1)]
        # The child's pool opens at most two connections for tasks run one at a time: the one the
        # first task asked for and the pool's min_size one, opened in the background; it may come
        # after any task. Without reuse every task has a backend of its own.
        assert len(set(backends)) <= 2, f"{TASKS} tasks served by backends {backends}"
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)
        client.delete(key)
        remove_queue(queue)
        log.unlink(missing_ok=True)
