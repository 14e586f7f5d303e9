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
import http.client
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
from tests.support.processes import database_url_for_child, read_by_server, start_daphne, stop_daphne
from tests.support.realtime import PusherSocket, run

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

GRACE_SECONDS = 10  # the default of SHUTDOWN_GRACE_SECONDS
SLOW_REQUEST_SECONDS = 1.5  # still running well after the signal, which comes once the server has read it
CLIENTS = 8


def launch(tmp_path):
    task_mode = "celery" if settings.REDIS_URL else "thread"  # embedded: the job pool and beat run
    return start_daphne(
        tmp_path,
        database_url=database_url_for_child(tmp_path),
        TASK_MODE=task_mode,
        BENCH_ROUTES="true",
        SHUTDOWN_GRACE_SECONDS=str(GRACE_SECONDS),
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


class HeldSocket:
    """A subscribed WebSocket held in a thread of its own: how and when the server closes it once
    signalled, and how a new WebSocket is turned away then."""

    def __init__(self, server):
        self.server = server
        self.ready = threading.Event()
        self.closed_at: float | None = None
        self.close_code: int | None = None
        self.reconnect_error: BaseException | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            run(self._hold())
        except BaseException as error:  # asserted by the test
            self.error = error

    async def _hold(self) -> None:
        client = await PusherSocket.open(self.server.ws_url())
        reply = await client.subscribe("public-shutdown")
        assert reply["event"] == "pusher_internal:subscription_succeeded", reply
        self.ready.set()
        try:
            while True:
                await asyncio.wait_for(client.ws.recv(), GRACE_SECONDS + 5)
        except websockets.ConnectionClosed as closed:
            self.closed_at = time.monotonic()
            self.close_code = closed.rcvd.code if closed.rcvd is not None else None
        try:
            await websockets.connect(self.server.ws_url(), open_timeout=5)
        except OSError as error:
            self.reconnect_error = error


def test_sigterm_under_keep_alive_load_finishes_in_flight_requests_closes_websockets_and_exits_0_in_time(tmp_path):
    """Also: an open WebSocket is closed with 4200 at once (not at the end of the grace time),
    and a new one is refused."""
    server = launch(tmp_path)
    held = HeldSocket(server)
    stop = threading.Event()
    clients = [Client(f"{server.base_url}/healthz") for _ in range(CLIENTS)]
    slow_outcomes: list[Outcome] = []
    threads = [threading.Thread(target=client.run, args=(stop,), daemon=True) for client in clients]
    slow = SlowRequest(server.port, f"/bench/sleep?seconds={SLOW_REQUEST_SECONDS}")
    try:
        for thread in threads:
            thread.start()
        held.thread.start()
        assert held.ready.wait(30), held.error
        # Keep-alive load: every client has been answered a few times on its connection.
        wait_until(lambda: all(len(client.outcomes) >= 5 for client in clients), 30, "the keep-alive load")
        slow.send()  # returns once the server has read it: the slow request is in flight
        slow_outcomes.append(slow.outcome)
        signalled_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code, took = wait_for_exit(server.process, signalled_at)
    finally:
        stop.set()
        for thread in [*threads, slow.thread, held.thread]:
            if thread.ident is not None:  # started
                thread.join(GRACE_SECONDS)
        stop_daphne(server)
    log = server.log()
    assert code == 0, f"exit code {code} after {took:.1f} s:\n{log}"
    assert took < GRACE_SECONDS, log
    assert "cutting" not in log and "ran out" not in log

    assert held.error is None, repr(held.error)
    assert held.close_code == protocol.RECONNECT, held.close_code
    assert held.closed_at - signalled_at < 2  # at once, not at the end of the grace time
    error = held.reconnect_error
    assert isinstance(error, ConnectionRefusedError) or refused(error), repr(error)

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


class SlowRequest:
    """One request on a connection of its own: `send()` returns once the server process has read
    the request from its socket (it is in flight there, not merely on its way), and a thread then
    waits for the answer into `outcome`."""

    def __init__(self, port: int, path: str):
        self.port, self.path = port, path
        self.thread = threading.Thread(target=self._answer, daemon=True)

    def send(self) -> None:
        self.outcome = Outcome(time.monotonic())
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=GRACE_SECONDS + 5)
        self.connection.request("GET", self.path)
        read_by_server(self.connection.sock, self.port)
        self.thread.start()

    def _answer(self) -> None:
        try:
            response = self.connection.getresponse()
            response.read()
            self.outcome.status = response.status
        except (OSError, http.client.HTTPException) as error:
            self.outcome.error = error
        finally:
            self.connection.close()


def test_a_request_outlasting_the_grace_time_is_cut_and_the_process_still_exits_in_time(tmp_path):
    grace = 2
    server = start_daphne(
        tmp_path, database_url=database_url_for_child(tmp_path), BENCH_ROUTES="true", SHUTDOWN_GRACE_SECONDS=str(grace)
    )
    stuck = SlowRequest(server.port, "/bench/sleep?seconds=20")
    try:
        stuck.send()  # in flight in the server
        signalled_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        code, took = wait_for_exit(server.process, signalled_at)
        stuck.thread.join(5)
    finally:
        stop_daphne(server)
    assert code == 1, f"exit code {code} after {took:.1f} s:\n{server.log()}"
    assert grace - 0.5 < took < grace + 1
    assert f"grace of {grace} s ran out (1 requests still running)" in server.log()
    outcome = stuck.outcome
    assert outcome.status is None and outcome.error is not None  # cut: no answer ever came
