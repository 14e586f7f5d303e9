"""PostgreSQL restarts under load: while it is down every request fails cleanly (503
SERVICE_UNAVAILABLE in the surface's envelope, never a 500 or a hang), and once it is back the
same web process answers again without a restart."""

import contextlib
import os
import shutil
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import requests

from tests.support.postgres_snapshot import seeded_private_postgres
from tests.support.private_servers import wait_until
from tests.support.processes import web_server

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(
        not sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb")), reason="needs PostgreSQL's initdb"
    ),
    pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("runuser"), reason="needs runuser as root"),
]


class Load:
    """Kiosk polls and agent list calls in a loop from two threads, every answer recorded."""

    def __init__(self, base: str, kiosk: dict, agent: dict, session_id: str):
        self.kiosk = requests.Session()
        self.kiosk.headers.update({"X-Device-Id": kiosk["device_id"], "X-Device-Token": kiosk["device_token"]})
        self.agent = requests.Session()
        self.agent.get(f"{base}/api/csrf-cookie", timeout=10)
        self.agent.headers["X-XSRF-TOKEN"] = self.agent.cookies["XSRF-TOKEN"]
        signed_in = self.agent.post(f"{base}/api/login", json={"email": agent["email"], "password": agent["password"]})
        assert signed_in.status_code == 200, signed_in.text
        self.calls = [
            (self.kiosk, f"{base}/api/public/sessions/{session_id}/status", "kiosk"),
            (self.agent, f"{base}/api/sessions/incoming", "agent"),
        ]
        self.answers: list[tuple[float, str, int, dict]] = []
        self.stop = threading.Event()

    def run(self, http, url, surface) -> None:
        while not self.stop.is_set():
            started = time.monotonic()
            response = http.get(url, timeout=20)
            body = response.json() if response.headers.get("Content-Type", "").startswith("application/json") else {}
            self.answers.append((time.monotonic() - started, surface, response.status_code, body))
            time.sleep(0.05)

    def __enter__(self):
        self.threads = [threading.Thread(target=self.run, args=call, daemon=True) for call in self.calls]
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        for thread in self.threads:
            thread.join(30)


def test_requests_fail_cleanly_while_postgres_restarts_then_recover(settings):
    workdir = Path(tempfile.mkdtemp(prefix="kiosk-pg-"))  # not under pytest's 0700 tmp: postgres must reach it
    postgres, demo = seeded_private_postgres(workdir)
    try:
        env = {"DATABASE_URL": postgres.url, "REDIS_URL": settings.REDIS_URL, "CACHE_KEY_PREFIX": "kiosk-fault-pg"}
        # The kiosk poll would be answered from its cached copy through the outage (a status
        # cannot change while the database is down); make every poll read the database.
        env["KIOSK_STATUS_COPY_SECONDS"] = "0"
        env["DATABASE_POOL_TIMEOUT"] = "1"  # a request gives up on the pool sooner: the outage is shorter
        owner = demo["owners"][0]
        kiosk, agent = owner["kiosks"][0], owner["agents"][0]

        with web_server(**env, SESSION_COOKIE_SECURE="false") as base:
            start = {"device_id": kiosk["device_id"], "customer_locale": "en-US"}
            headers = {"X-Device-Id": kiosk["device_id"], "X-Device-Token": kiosk["device_token"]}
            started = requests.post(f"{base}/api/public/sessions/start", json=start, headers=headers, timeout=15)
            assert started.status_code in (201, 409), started.text  # 409: a demo session was left open
            session_id = started.json().get("session_id") or started.json()["error"]["details"]["session_id"]

            with Load(base, kiosk, agent, session_id) as load:

                def both_answering() -> bool:
                    return {surface for _, surface, status, _ in load.answers if status == 200} == {"kiosk", "agent"}

                wait_until(both_answering, 15, "both surfaces answering")
                postgres.stop()
                down_from = len(load.answers)

                def both_refused() -> bool:
                    outage = {(surface, status) for _, surface, status, _ in load.answers[down_from:]}
                    return outage >= {("kiosk", 503), ("agent", 503)}

                wait_until(both_refused, 30, "a 503 from each surface")  # their pool waits gave up
                down_until = len(load.answers)
                postgres.start()

                def recovered() -> bool:
                    recent = load.answers[-4:]
                    return len(load.answers) > down_until + 4 and all(status == 200 for _, _, status, _ in recent)

                with contextlib.suppress(TimeoutError):  # the assertions below say what did not recover
                    wait_until(recovered, 20, "recovery", every=0.2)

        statuses = Counter((surface, status) for _, surface, status, _ in load.answers)
        assert set(status for _, status in statuses) <= {200, 503}, statuses
        outage = load.answers[down_from:down_until]
        assert {(surface, status) for _, surface, status, _ in outage} >= {("kiosk", 503), ("agent", 503)}, statuses
        for _, surface, status, body in load.answers:
            if status == 503:
                assert body["error"]["code"] == "SERVICE_UNAVAILABLE"
                assert ("request_id" in body["error"]) == (surface == "kiosk")  # each surface's own envelope
        assert max(seconds for seconds, *_ in load.answers) < 10  # nothing hangs
        assert all(status == 200 for _, _, status, _ in load.answers[-4:]), "the web process did not recover"
    finally:
        postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)
