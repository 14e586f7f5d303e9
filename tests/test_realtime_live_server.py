"""A real daphne process on a loopback port for the real-time tests, plus a small Pusher
WebSocket client; the tests here prove the server itself (handshake, shutdown close code).

Other test_realtime_* modules import `start_daphne`, `live_app`, `protocol_server` and `PusherSocket`.

The child process gets the test process's realtime credentials and its Redis (when REDIS_URL is
set), under a cache prefix of its own that is cleaned when it stops. Tests that need the database
in the child (`live_app`) use `transaction=True` so their rows are committed: on PostgreSQL the
child opens the pytest-django test database by name; on the embedded SQLite default (an in-memory
database the child cannot see) the committed rows are copied into a file the child opens.
"""

import asyncio
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
import websockets
from django.conf import settings
from django.db import connection

from apps.realtime import protocol

ROOT = Path(__file__).resolve().parent.parent
DAPHNE = Path(sys.executable).parent / "daphne"
# The servers' Redis keys (fan-out group, presence) live under their own prefix: the suite's
# per-test cache clearing must not pull them from under a server that outlives one test.
CHILD_PREFIX = f"{settings.CACHE_KEY_PREFIX}-live{os.getpid()}"


@dataclass
class LiveServer:
    port: int
    process: subprocess.Popen
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, key: str | None = None, query: str = "protocol=7&client=js&version=8.6.0&flash=false") -> str:
        return f"ws://127.0.0.1:{self.port}/app/{key or settings.REALTIME_APP_KEY}?{query}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-5000:]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url(tmp_path: Path) -> str | None:
    """The child's DATABASE_URL: the pytest-django test database itself on PostgreSQL. On SQLite
    (None) the committed rows are copied to VAR_DIR/db.sqlite3, the embedded default's file."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        credentials = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
        return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    connection.ensure_connection()
    (tmp_path / "var").mkdir(parents=True, exist_ok=True)
    target = sqlite3.connect(tmp_path / "var" / "db.sqlite3")
    connection.connection.backup(target)
    target.close()
    return None


def child_env(tmp_path: Path, *, database_url: str | None = None, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"} and not key.startswith("PYTEST")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY=settings.SECRET_KEY,
        REALTIME_APP_ID=str(settings.REALTIME_APP_ID),
        REALTIME_APP_KEY=settings.REALTIME_APP_KEY,
        REALTIME_APP_SECRET=settings.REALTIME_APP_SECRET,
        CACHE_KEY_PREFIX=CHILD_PREFIX,
        TASK_MODE="sync",
        SESSION_COOKIE_SECURE="false",
        VAR_DIR=str(tmp_path / "var"),
        PYTHONUNBUFFERED="1",
    )
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(extra)
    return env


def start_daphne(tmp_path: Path, **env_extra: str) -> LiveServer:
    port = _free_port()
    tmp_path.mkdir(parents=True, exist_ok=True)
    log_path = tmp_path / f"daphne-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(DAPHNE), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=child_env(tmp_path, **env_extra),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = LiveServer(port, process, log_path)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"daphne exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(f"{server.base_url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.1)
    stop_daphne(server)
    raise AssertionError(f"daphne did not answer /healthz:\n{server.log()}")


def stop_daphne(server: LiveServer) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        for key in client.scan_iter(f"{CHILD_PREFIX}:*"):
            client.delete(key)
        client.close()


@pytest.fixture(scope="module")
def protocol_server(tmp_path_factory):
    """One server per module for protocol tests that need no database rows."""
    server = start_daphne(tmp_path_factory.mktemp("rt-protocol"))
    yield server
    stop_daphne(server)


@pytest.fixture
def live_app(transactional_db, tmp_path):
    """`launch()` starts a server on the test database; call it after creating the rows."""
    servers: list[LiveServer] = []

    def launch(**env_extra: str) -> LiveServer:
        server = start_daphne(tmp_path, database_url=_database_url(tmp_path), **env_extra)
        servers.append(server)
        return server

    yield launch
    for server in servers:
        stop_daphne(server)


class PusherSocket:
    """The client side of the protocol, by hand, to see every frame (data decoded)."""

    def __init__(self, ws):
        self.ws = ws
        self.socket_id = ""

    @classmethod
    async def open(cls, url: str) -> "PusherSocket":
        client = cls(await websockets.connect(url, open_timeout=5))
        established = await client.next("pusher:connection_established")
        client.socket_id = established["data"]["socket_id"]
        return client

    async def send(self, event: str, data=None, channel: str | None = None) -> None:
        message = {"event": event, "data": data if data is not None else {}}
        if channel is not None:
            message["channel"] = channel
        await self.ws.send(json.dumps(message))

    async def next(self, event: str | None = None, timeout: float = 5.0) -> dict:
        """The next frame (of `event`, skipping others), with `data` JSON-decoded."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            remaining = deadline - asyncio.get_running_loop().time()
            raw = await asyncio.wait_for(self.ws.recv(), max(0.01, remaining))
            message = json.loads(raw)
            assert isinstance(message.get("data", ""), str), message  # Pusher sends data as a string
            message["data"] = json.loads(message["data"]) if message.get("data") else None
            if event is None or message["event"] == event:
                return message

    async def nothing(self, timeout: float = 0.5) -> None:
        """Assert no frame arrives within `timeout`."""
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
        except TimeoutError:
            return
        raise AssertionError(f"unexpected frame {raw}")

    async def subscribe(self, channel: str, auth: str | None = None, channel_data: str | None = None) -> dict:
        data = {"channel": channel}
        if auth is not None:
            data["auth"] = auth
        if channel_data is not None:
            data["channel_data"] = channel_data
        await self.send("pusher:subscribe", data)
        while True:
            reply = await self.next()
            if reply["event"] in {"pusher_internal:subscription_succeeded", "pusher:subscription_error"}:
                if reply.get("channel") == channel:
                    return reply
            elif reply["event"] == "pusher:error":
                return reply

    async def close(self) -> None:
        await self.ws.close()


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


# ----------------------------------------------------------------------------- the server itself


@pytest.mark.live
def test_handshake_gives_a_signable_socket_id_and_the_activity_timeout(protocol_server):
    async def scenario():
        async with websockets.connect(protocol_server.ws_url()) as ws:
            message = json.loads(await ws.recv())
            assert message["event"] == "pusher:connection_established"
            data = json.loads(message["data"])
            assert protocol.SOCKET_ID_RE.match(data["socket_id"])
            assert data["activity_timeout"] == settings.REALTIME_ACTIVITY_TIMEOUT

    run(scenario())


@pytest.mark.live
def test_server_shutdown_closes_connections_with_4200_so_clients_reconnect_at_once(tmp_path):
    server = start_daphne(tmp_path)
    try:

        async def scenario():
            client = await PusherSocket.open(server.ws_url())
            server.process.send_signal(signal.SIGTERM)
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(client.ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == protocol.RECONNECT

        run(scenario())
    finally:
        stop_daphne(server)
