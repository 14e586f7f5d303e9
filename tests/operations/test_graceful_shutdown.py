"""SIGTERM on a live web process (config/serve.py): in-flight requests finish, keep-alive clients
are turned away cleanly, WebSockets close with 4200, and the process exits 0 within
SHUTDOWN_GRACE_SECONDS.

The server runs in the suite's own mode: the embedded default (SQLite, in-process job pool and
beat) without DATABASE_URL/REDIS_URL, PostgreSQL + Redis with TASK_MODE=celery with them.

What a client may see once the signal is sent, precisely: a request already sent completes with
200; the response says `Connection: close`, so the client's next request opens a new connection,
which is refused (the server no longer listens). Never a reset or a connection closed without a
response.
"""

import asyncio
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

import pytest
import requests
import websockets
from django.conf import settings

from apps.realtime import protocol
from tests.support.private_servers import wait_until
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne
from tests.support.realtime import PusherSocket, run

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

GRACE_SECONDS = 10  # the default of SHUTDOWN_GRACE_SECONDS
SLOW_REQUEST_SECONDS = 3.0
CLIENTS = 8


def launch(tmp_path):
    task_mode = "celery" if settings.REDIS_URL else "thread"  # embedded: the job pool and beat run
    return start_daphne(
        tmp_path, database_url=database_url_for_child(tmp_path), TASK_MODE=task_mode, BENCH_ROUTES="true"
    )


def refused(error: Exception) -> bool:
    """Whether the connection was refused (nobody listening), as opposed to cut or reset."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, ConnectionRefusedError):
            return True
        seen.add(id(error))
        reason = getattr(error, "reason", None)  # urllib3's MaxRetryError
        nested = error.args[0] if error.args and isinstance(error.args[0], Exception) else None
        error = reason or nested or error.__cause__ or error.__context__
    return False


@dataclass
class Outcome:
    started: float
    status: int | None = None
    error: Exception | None = None
    connection_header: str = ""


@dataclass
class Client:
    """One keep-alive client in a loop (requests.Session reuses its connection)."""

    url: str
    outcomes: list[Outcome] = field(default_factory=list)

    def run(self, stop: threading.Event) -> None:
        with requests.Session() as session:
            while not stop.is_set():
                outcome = Outcome(time.monotonic())
                try:
                    response = session.get(self.url, timeout=GRACE_SECONDS + 5)
                    outcome.status, outcome.connection_header = (
                        response.status_code,
                        response.headers.get("Connection", ""),
                    )
                except requests.RequestException as error:
                    outcome.error = error
                    time.sleep(0.05)
                self.outcomes.append(outcome)


def wait_for_exit(process: subprocess.Popen, signalled_at: float) -> tuple[int, float]:
    try:
        code = process.wait(timeout=GRACE_SECONDS + 5)
    except subprocess.TimeoutExpired:
        code = None
    return code, time.monotonic() - signalled_at


def test_sigterm_under_keep_alive_load_finishes_in_flight_requests_and_exits_0_within_the_grace_time(tmp_path):
    server = launch(tmp_path)
    stop = threading.Event()
    clients = [Client(f"{server.base_url}/healthz") for _ in range(CLIENTS)]
    slow_outcomes: list[Outcome] = []
    slow_url = f"{server.base_url}/bench/sleep?seconds={SLOW_REQUEST_SECONDS}"
    threads = [threading.Thread(target=client.run, args=(stop,), daemon=True) for client in clients]
    slow = threading.Thread(target=lambda: slow_outcomes.append(one_request(slow_url)), daemon=True)
    try:
        for thread in threads:
            thread.start()
        # Keep-alive load: every client has been answered a few times on its connection.
        wait_until(lambda: all(len(client.outcomes) >= 5 for client in clients), 30, "the keep-alive load")
        slow.start()
        time.sleep(1)  # the slow request is in flight
        signalled_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code, took = wait_for_exit(server.process, signalled_at)
    finally:
        stop.set()
        for thread in [*threads, slow]:
            thread.join(GRACE_SECONDS)
        stop_daphne(server)
    log = server.log()
    assert code == 0, f"exit code {code} after {took:.1f} s:\n{log}"
    assert took < GRACE_SECONDS, log
    assert "cutting" not in log and "ran out" not in log

    (slow_outcome,) = slow_outcomes
    assert slow_outcome.error is None and slow_outcome.status == 200, slow_outcome
    assert slow_outcome.started < signalled_at
    for client in clients:
        before = [o for o in client.outcomes if o.started < signalled_at]
        after = [o for o in client.outcomes if o.started >= signalled_at]
        assert before and all(o.status == 200 for o in before), [o for o in before if o.status != 200][:3]
        answered = [o for o in after if o.error is None]
        assert all(o.status == 200 for o in answered), answered[:3]
        assert all(o.connection_header.lower() == "close" for o in answered), answered[:3]
        failures = [o.error for o in after if o.error is not None]
        assert failures, "the client was never turned away"
        assert all(refused(error) for error in failures), [repr(e) for e in failures if not refused(e)][:3]


def one_request(url: str) -> Outcome:
    outcome = Outcome(time.monotonic())
    try:
        response = requests.get(url, timeout=GRACE_SECONDS + 5)
        outcome.status = response.status_code
    except requests.RequestException as error:
        outcome.error = error
    return outcome


def test_sigterm_closes_websockets_with_4200_and_refuses_new_ones(tmp_path):
    server = launch(tmp_path)
    try:

        async def scenario():
            client = await PusherSocket.open(server.ws_url())
            reply = await client.subscribe("public-shutdown")
            assert reply["event"] == "pusher_internal:subscription_succeeded"
            signalled_at = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(client.ws.recv(), GRACE_SECONDS)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == protocol.RECONNECT
            assert time.monotonic() - signalled_at < 2  # at once, not at the end of the grace time
            with pytest.raises(OSError) as again:
                await websockets.connect(server.ws_url(), open_timeout=5)
            assert isinstance(again.value, ConnectionRefusedError) or refused(again.value), repr(again.value)
            return signalled_at

        signalled_at = run(scenario())
        code, took = wait_for_exit(server.process, signalled_at)
    finally:
        stop_daphne(server)
    assert code == 0, f"exit code {code} after {took:.1f} s:\n{server.log()}"
    assert took < GRACE_SECONDS


def test_a_request_outlasting_the_grace_time_is_cut_and_the_process_still_exits_in_time(tmp_path):
    grace = 3
    server = start_daphne(
        tmp_path, database_url=database_url_for_child(tmp_path), BENCH_ROUTES="true", SHUTDOWN_GRACE_SECONDS=str(grace)
    )
    outcomes: list[Outcome] = []
    stuck = threading.Thread(
        target=lambda: outcomes.append(one_request(f"{server.base_url}/bench/sleep?seconds=20")), daemon=True
    )
    try:
        stuck.start()
        time.sleep(1)
        signalled_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code, took = wait_for_exit(server.process, signalled_at)
        stuck.join(5)
    finally:
        stop_daphne(server)
    assert code == 1, f"exit code {code} after {took:.1f} s:\n{server.log()}"
    assert grace - 0.5 < took < grace + 1
    assert "grace of 3 s ran out (1 requests still running)" in server.log()
    (outcome,) = outcomes
    assert outcome.status is None and outcome.error is not None  # cut: no answer ever came
