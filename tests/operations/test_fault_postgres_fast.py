"""A PostgreSQL outage fails fast: while the database is down, a kiosk's status poll, its heartbeat
and /readyz answer 503 within about 2 s (the connection pool's wait and the connect timeout,
DATABASE_POOL_TIMEOUT and DATABASE_CONNECT_TIMEOUT), so kiosks and load balancers are not held for
5-10 s."""

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
import requests

from tests.support.postgres_snapshot import seeded_private_postgres
from tests.support.processes import web_server

pytestmark = [
    pytest.mark.live,
    pytest.mark.skipif(
        not sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb")), reason="needs PostgreSQL's initdb"
    ),
    pytest.mark.skipif(os.geteuid() == 0 and not shutil.which("runuser"), reason="needs runuser as root"),
]


def timed(call, *args, **kwargs):
    started = time.monotonic()
    response = call(*args, timeout=20, **kwargs)
    return response, time.monotonic() - started


def test_requests_answer_503_within_about_2_s_while_postgres_is_down():
    workdir = Path(tempfile.mkdtemp(prefix="kiosk-pg-fast-"))  # postgres must reach it
    postgres, demo = seeded_private_postgres(workdir)
    try:
        env = {
            "DATABASE_URL": postgres.url,
            "CACHE_KEY_PREFIX": "kiosk-fault-pg-fast",
            "KIOSK_STATUS_COPY_SECONDS": "0",
        }
        kiosk = demo["owners"][0]["kiosks"][0]
        with web_server(**env) as base:
            kiosk_http = requests.Session()
            kiosk_http.headers.update({"X-Device-Id": kiosk["device_id"], "X-Device-Token": kiosk["device_token"]})
            heartbeat = f"{base}/api/public/kiosks/heartbeat"
            ok, _ = timed(kiosk_http.post, heartbeat, json={"device_id": kiosk["device_id"]})
            assert ok.status_code in (200, 204), ok.text
            postgres.stop()
            status = f"{base}/api/public/sessions/ses_unknown/status"  # a database read
            answers = [
                timed(requests.get, f"{base}/readyz"),
                timed(kiosk_http.get, status),
                timed(kiosk_http.post, heartbeat, json={"device_id": kiosk["device_id"]}),
                timed(requests.get, f"{base}/readyz"),
                timed(kiosk_http.get, status),
                timed(kiosk_http.post, heartbeat, json={"device_id": kiosk["device_id"]}),
            ]
            for response, seconds in answers:
                # A heartbeat within 15 s of the last written one is answered from the cache.
                allowed = {200, 503} if response.request.url == heartbeat else {503}
                assert response.status_code in allowed, response.text
                assert seconds < 3.5, f"{response.request.url} took {seconds:.1f} s to answer"
    finally:
        postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)
