"""A real `celery worker` child process on a queue of its own, for the webhook worker fault
tests (kill it mid-delivery, start another), and the cleanup of that queue in the broker."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.support.processes import ROOT

LEASE_SECONDS = 6  # > the 5 s receiver timeout, as the production lease (60 s) is


def database_url() -> str:
    """The pytest test database (not the one named in DATABASE_URL) as a URL for the child."""
    params = connection.settings_dict
    auth = quote(params["USER"] or "", safe="")
    if params.get("PASSWORD"):
        auth += ":" + quote(params["PASSWORD"], safe="")
    host = params["HOST"] or "127.0.0.1"
    port = params["PORT"] or 5432
    return f"postgresql://{auth}@{host}:{port}/{params['NAME']}"


class Worker:
    """One `celery worker` child process with its log in a temporary file."""

    def __init__(
        self,
        queue: str,
        name: str,
        lease_seconds: float | None = LEASE_SECONDS,
        receiver_timeout_seconds: float | None = None,  # else the production 5 s; below lease_seconds
    ):
        self.log = Path(tempfile.mkstemp(prefix=f"{name}-", suffix=".log")[1])
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "REDIS_URL": settings.REDIS_URL,
            "TASK_MODE": "celery",
            "CACHE_KEY_PREFIX": f"{settings.CACHE_KEY_PREFIX}-fault",
            "DJANGO_SETTINGS_MODULE": "tests.support.worker_settings",
            "WORKER_QUEUE": queue,
            "WEBHOOK_SECRET_KEYS": ",".join(settings.WEBHOOK_SECRET_KEYS),
            "PYTHONPATH": str(ROOT),
        }
        argv = [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "config.celery:app",
            "worker",
            "-P",
            "solo",
            "--concurrency=1",
            "--loglevel=INFO",
            "-Q",
            queue,
            "-n",
            f"{name}-{uuid.uuid4().hex[:8]}@%h",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ]
        if lease_seconds is not None:  # else the production lease
            env["WEBHOOK_LEASE_SECONDS"] = str(lease_seconds)
        if receiver_timeout_seconds is not None:
            env["WEBHOOK_RECEIVER_TIMEOUT_SECONDS"] = str(receiver_timeout_seconds)
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )

    def wait_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                pytest.fail(f"the worker exited with {self.process.returncode}:\n{self.tail()}")
            if b" ready." in self.log.read_bytes():
                return
            time.sleep(0.05)
        pytest.fail(f"the worker was not ready within {timeout} s:\n{self.tail()}")

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.unlink(missing_ok=True)

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])


def remove_queue(queue: str) -> None:
    """Delete this test's queue, bindings and the killed worker's unacknowledged message from
    the broker, so nothing of it is ever restored for anyone."""
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        for key in list(client.scan_iter(f"{queue}*")) + list(client.scan_iter(f"_kombu.binding*{queue}*")):
            client.delete(key)
        for tag, raw in client.hgetall("unacked").items():
            try:
                routing_key = json.loads(raw)[2]
            except (ValueError, IndexError, TypeError):
                continue
            if routing_key == queue:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)
