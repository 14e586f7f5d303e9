"""Real-time across a Redis restart: a private redis-server is killed and started again on the same
port under a live web process. An agent's pusher-js socket, opened before the restart and never
reconnected, hears a session started after it within 5 s of Redis answering again.

Needs `node` and `redis-server`; runs in both modes (the web process's database is the test
database on PostgreSQL, a copy of it on the embedded default)."""

import asyncio
import json
import queue
import shutil
import subprocess
import threading
import time

import pytest
import requests
import websockets
from django.conf import settings

from apps.realtime import protocol
from tests import factories
from tests.support.live import OnceHashedPBKDF2PasswordHasher
from tests.support.private_servers import PrivateRedis, wait_until
from tests.support.realtime import CLIENTS_JS, PusherSocket, library

pytestmark = [
    pytest.mark.live,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(not shutil.which("redis-server"), reason="needs redis-server"),
]


class Listener:
    """tests/realtime_js/listen.mjs in the background: every line it prints, in a queue."""

    def __init__(self, node_binary: str, server, agent):
        spec = {
            "base_url": server.base_url,
            "ws_port": server.port,
            "key": settings.REALTIME_APP_KEY,
            "agent": {"id": agent.pk, "email": agent.email, "password": factories.PASSWORD},
            "max_seconds": 120,
        }
        self.process = subprocess.Popen(
            [node_binary, str(CLIENTS_JS / "listen.mjs"), json.dumps(spec)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=CLIENTS_JS,
        )
        self.lines: queue.Queue = queue.Queue()
        self.seen: list[dict] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(json.loads(line))

    def wait_for(self, wanted, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                break
            self.seen.append(line)
            if wanted(line):
                return line
        raise AssertionError(f"not seen within {timeout} s; the client saw {self.seen}")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


def start_session(server, kiosk) -> str:
    headers = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    body = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
    response = requests.post(f"{server.base_url}/api/public/sessions/start", json=body, headers=headers, timeout=15)
    assert response.status_code == 201, response.text
    return response.json()["session_id"]


def cancel_session(server, kiosk, session_id: str) -> None:
    """The customer leaves: the agent's offer for it is withdrawn, so the next session is offered
    to the agent (an agent holds one offer at a time)."""
    headers = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    url = f"{server.base_url}/api/public/sessions/{session_id}/cancel"
    response = requests.post(url, json={}, headers=headers, timeout=15)
    assert response.status_code == 200, response.text


def redis_answers(redis: PrivateRedis) -> bool:
    import redis as redis_py

    client = redis_py.Redis.from_url(redis.url, socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        return bool(client.ping())
    finally:
        client.close()


def redis_down_for(server) -> bool:
    """The web process's own Redis check (/readyz) fails: it has lost its connections."""
    checks = requests.get(f"{server.base_url}/readyz", timeout=5).json()["checks"]
    return checks["redis"] != "ok"


def test_an_open_socket_hears_events_again_within_5_s_of_redis_coming_back(node, live_app, business, agent):
    kiosks = factories.KioskFactory.create_batch(8, business=business)  # one session each
    hasher = OnceHashedPBKDF2PasswordHasher()  # real PBKDF2, which the server checks; hashed once per process
    agent.password = hasher.encode(factories.PASSWORD, hasher.salt())
    agent.save(update_fields=["password"])
    redis = PrivateRedis()
    redis.start()
    listener = None
    try:
        server = live_app(REDIS_URL=redis.url)
        listener = Listener(node, server, agent)
        listener.wait_for(lambda line: line.get("state") == "connected", 20)
        listener.wait_for(lambda line: "subscribed" in line, 20)
        kiosk = kiosks.pop()
        first = start_session(server, kiosk)  # the socket works before the fault
        heard = listener.wait_for(lambda line: line.get("event") == "SessionIncoming", 5)
        assert heard["data"]["session"]["id"] == first
        cancel_session(server, kiosk, first)  # frees the agent's one offer for the sessions below

        redis.stop()  # down until the web process has seen it gone, as in a managed failover
        wait_until(lambda: redis_down_for(server), 10, "the web process seeing Redis gone", every=0.05)
        redis.start()
        wait_until(lambda: redis_answers(redis), 10, "redis after its restart")
        back_at = time.monotonic()
        before_fault = len(listener.seen)

        # The session may have been announced (best effort) before this process rejoined the
        # fan-out; then the customer leaves and a new one starts, every second, until one reaches
        # the agent.
        kiosk = kiosks.pop()
        started = [start_session(server, kiosk)]
        deadline = back_at + 5
        while True:
            try:
                line = listener.wait_for(lambda line: line.get("event") == "SessionIncoming", 1)
            except AssertionError:
                assert time.monotonic() < deadline, f"no event 5 s after Redis came back; saw {listener.seen}"
                cancel_session(server, kiosk, started[-1])
                kiosk = kiosks.pop()
                started.append(start_session(server, kiosk))
                continue
            if line["data"]["session"]["id"] in started:
                break
        assert time.monotonic() - back_at < 5 + 1  # heard within 5 s (plus the last poll's second)
        states = [line["state"] for line in listener.seen[before_fault:] if "state" in line]
        assert states == [], f"the client had to reconnect: {states}"
        assert listener.seen[-1]["data"]["session"]["id"] in started
    finally:
        if listener is not None:
            listener.close()
        redis.stop()


async def closed_with(ws, timeout: float = 10) -> int:
    """Read frames until the server closes; its close code."""
    with pytest.raises(websockets.ConnectionClosed) as closed:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    assert closed.value.rcvd is not None, "closed without a close frame"
    return closed.value.rcvd.code


def test_a_process_that_cannot_deliver_says_so_and_takes_connections_again_once_it_can(live_app):
    """Redis stays down past REALTIME_UNDELIVERABLE_SECONDS: open sockets are closed with 4200 and new
    ones refused with 4100 (not left open and silent); once Redis is back, sockets work again."""
    redis = PrivateRedis()
    redis.start()
    try:
        undeliverable = 1.0  # production: 5 s, checked every second
        server = live_app(
            REDIS_URL=redis.url,
            REALTIME_UNDELIVERABLE_SECONDS=str(undeliverable),
            REALTIME_FANOUT_CHECK_SECONDS=str(undeliverable / 4),
        )

        async def scenario():
            client = await PusherSocket.open(server.ws_url())
            assert (await client.subscribe("public-news"))["event"] == "pusher_internal:subscription_succeeded"
            redis.stop()
            started = time.monotonic()
            assert await closed_with(client.ws) == protocol.RECONNECT  # reconnect at once, elsewhere
            assert time.monotonic() - started < undeliverable + 3
            async with websockets.connect(server.ws_url(), open_timeout=5) as refused:
                assert await closed_with(refused) == protocol.OVER_CAPACITY  # pusher-js retries after 1 s
            redis.start()
            async with asyncio.timeout(10):  # taken again within seconds of Redis answering
                while True:
                    async with websockets.connect(server.ws_url(), open_timeout=5) as ws:
                        if json.loads(await ws.recv())["event"] == "pusher:connection_established":
                            break
                    await asyncio.sleep(0.2)
            client = await PusherSocket.open(server.ws_url())
            assert (await client.subscribe("public-news"))["event"] == "pusher_internal:subscription_succeeded"
            await asyncio.to_thread(library(server).trigger, "public-news", "news", {"n": 1})
            assert (await client.next("news"))["data"] == {"n": 1}
            await client.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        redis.stop()
