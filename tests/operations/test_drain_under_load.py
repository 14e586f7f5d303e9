"""SIGTERM on a web process under load: a fleet's worth of clients opening a new connection for
every request (as kiosks behind a balancer do), slow requests in flight, and open WebSockets, when
the signal arrives.

A measured run once saw a SIGTERM'd process keep taking new requests for 9.5 s and exit at 11.7 s,
past its 10 s grace, cutting 9 requests. Here, from the client's side:
- every request whose connection was established before the signal completes with 200;
- a connection attempted from shortly after the signal on is refused (nobody listens), never
  accepted, reset or left hanging;
- every WebSocket is closed with 4200 (reconnect elsewhere) within a second or two;
- the process exits 0 within the grace time.

The server runs in the suite's mode (embedded default, or PostgreSQL + Redis with them).
"""

import asyncio
import http.client
import random
import signal
import threading
import time
from dataclasses import dataclass

import pytest
import websockets
from django.conf import settings

from apps.realtime import protocol
from tests.support.private_servers import wait_until
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne
from tests.support.realtime import PusherSocket

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

GRACE_SECONDS = 10  # SHUTDOWN_GRACE_SECONDS's default
CLIENTS = 24  # threads, each opening a new connection per request
WEBSOCKETS = 40
REFUSED_WITHIN_SECONDS = 0.5  # after the signal, a new connection is refused from this long on
CLOSED_WITHIN_SECONDS = 2.0


@dataclass
class Attempt:
    started: float
    connected: float | None = None
    finished: float = 0.0
    status: int | None = None
    error: BaseException | None = None


def attempt(port: int, path: str) -> Attempt:
    outcome = Attempt(time.monotonic())
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=GRACE_SECONDS + 5)
    try:
        connection.connect()
        outcome.connected = time.monotonic()
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        outcome.status = response.status
    except (OSError, http.client.HTTPException) as error:
        outcome.error = error
    finally:
        connection.close()
        outcome.finished = time.monotonic()
    return outcome


def client_loop(port: int, stop: threading.Event, attempts: list[Attempt], seed: int) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        # Mostly quick requests touching the database, some slow ones that are in flight at the signal.
        path = f"/bench/sleep?seconds={rng.uniform(0.3, 2.5):.2f}" if rng.random() < 0.3 else "/readyz"
        outcome = attempt(port, path)
        attempts.append(outcome)
        if outcome.error is not None:
            time.sleep(0.02)


def hold_websockets(url: str, ready: threading.Event, closes: list[tuple[int | None, float]]) -> None:
    async def one() -> None:
        client = await PusherSocket.open(url)
        await client.subscribe("public-drain")
        ready_count.append(1)
        if len(ready_count) == WEBSOCKETS:
            ready.set()
        try:
            while True:
                await client.ws.recv()
        except websockets.ConnectionClosed as closed:
            closes.append((closed.rcvd.code if closed.rcvd else None, time.monotonic()))

    ready_count: list[int] = []

    async def all_of_them() -> None:
        await asyncio.wait_for(asyncio.gather(*(one() for _ in range(WEBSOCKETS))), GRACE_SECONDS + 20)

    asyncio.run(all_of_them())


def test_sigterm_under_new_connection_load_refuses_at_once_finishes_every_established_request_and_exits_in_time(
    tmp_path,
):
    task_mode = "celery" if settings.REDIS_URL else "thread"
    server = start_daphne(
        tmp_path,
        database_url=database_url_for_child(tmp_path),
        TASK_MODE=task_mode,
        BENCH_ROUTES="true",
        SHUTDOWN_GRACE_SECONDS=str(GRACE_SECONDS),
    )
    stop = threading.Event()
    per_client: list[list[Attempt]] = [[] for _ in range(CLIENTS)]
    closes: list[tuple[int | None, float]] = []
    sockets_ready = threading.Event()
    holder = threading.Thread(target=hold_websockets, args=(server.ws_url(), sockets_ready, closes), daemon=True)
    threads = [
        threading.Thread(target=client_loop, args=(server.port, stop, attempts, n), daemon=True)
        for n, attempts in enumerate(per_client)
    ]
    try:
        holder.start()
        assert sockets_ready.wait(30), server.log()
        for thread in threads:
            thread.start()
        # Under load, slow requests in flight: more connections made than the assertions ask for.
        wait_until(lambda: sum(a.connected is not None for c in per_client for a in c) > 4 * CLIENTS, 30, "the load")
        signalled_at = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            code = server.process.wait(timeout=GRACE_SECONDS + 5)
        except Exception:
            code = None
        took = time.monotonic() - signalled_at

        def tried_late() -> bool:  # an attempt is listed once it has ended
            return any(a.started > signalled_at + REFUSED_WITHIN_SECONDS for c in per_client for a in c)

        wait_until(tried_late, 10, "a client's try after the signal")  # the clients see the refusals
    finally:
        stop.set()
        for thread in threads:
            thread.join(GRACE_SECONDS + 5)
        holder.join(5)
        stop_daphne(server)
    log = server.log()
    assert code == 0, f"exit code {code} after {took:.1f} s:\n{log}"
    assert took < GRACE_SECONDS, log

    attempts = [a for client in per_client for a in client]
    established = [a for a in attempts if a.connected is not None and a.connected < signalled_at]
    assert len(established) > 3 * CLIENTS, f"too little load: {len(established)} requests before the signal"
    in_flight = [a for a in established if a.finished > signalled_at]
    assert len(in_flight) >= CLIENTS // 4, f"only {len(in_flight)} requests in flight at the signal"
    not_completed = [(a.status, repr(a.error)) for a in established if a.status != 200]
    assert not not_completed, f"{len(not_completed)} established requests cut: {not_completed[:5]}"

    late = [a for a in attempts if a.started > signalled_at + REFUSED_WITHIN_SECONDS]
    assert late, "no client tried again after the signal"
    accepted_late = [a for a in late if a.connected is not None]
    assert not accepted_late, f"{len(accepted_late)} connections accepted after the signal"
    assert all(isinstance(a.error, ConnectionRefusedError) for a in late), {repr(a.error) for a in late}

    assert len(closes) == WEBSOCKETS, closes
    assert {code for code, _ in closes} == {protocol.RECONNECT}, closes
    assert max(at for _, at in closes) - signalled_at < CLOSED_WITHIN_SECONDS
