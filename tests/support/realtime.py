"""Real-time test helpers: a hand-written Pusher WebSocket client (`PusherSocket`), daphne
servers (`protocol_server` per module with no database rows, `live_app` on the live database),
the official `pusher` library pointed at a server (`library`, `library_request`), the
channel-layer inbox of the fan-out group (`listener`), the channel-auth request as pusher-js
sends it (`ask`), agent HTTP sign-in and subscription against a live server (`agent_headers`,
`http`, `subscribe_via`), the real npm clients (`node`, `CLIENTS_JS`, `run_scenario`), two web
processes on one Redis (`two_servers`, `needs_redis`), and `broadcasts`, the one capture of every
real-time message the services send.

Fixtures here are imported by the test modules that use them. The child servers get the test
process's realtime credentials and Redis; `live_app`'s rows go to the worker's live database,
committed, where its servers read them (tests/support/live.py).
"""

import asyncio
import fcntl
import json
import shutil
import subprocess
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple
from urllib.parse import urlencode

import pusher
import pytest
import websockets
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from pusher.http import Request

from apps.realtime.fanout import FANOUT_GROUP
from tests.conftest import AgentClient
from tests.support.processes import ROOT, LiveServer, database_url_for_child, start_daphne, stop_daphne


@pytest.fixture
def protocol_server(shared_live_server):
    """The worker's shared server (tests/support/live.py), for protocol tests that need no database
    rows: each names its channels and users afresh (a tag) or closes what it opened. A test that
    changes a setting (a cap, a proxy rule) starts a server of its own; those share one Redis key
    prefix, and stopping one clears it, which the shared server's prefix keeps it out of."""
    return shared_live_server


@pytest.fixture
def live_app(live_db, request, tmp_path):
    """`launch()` -> the worker's shared server (tests/support/live.py): the test's rows are made
    on the worker's live database, which it reads, so make a fresh owner and talk to it over HTTP
    and WebSockets only. `launch(**env)` starts a server of the test's own with those settings,
    on the rows made so far; call it after creating them."""
    servers: list[LiveServer] = []

    def launch(**env_extra: str) -> LiveServer:
        if not env_extra:
            return request.getfixturevalue("shared_live_server")
        server = start_daphne(tmp_path, database_url=database_url_for_child(tmp_path), **env_extra)
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

    async def handled(self, *, strict: bool = True) -> None:
        """The server has handled every frame this socket sent so far (and made the publishes they
        cause): a connection's frames are handled one after another, and pusher:ping is answered
        after those before it. `strict`: the pong must be the very next frame (this socket expects
        nothing else); otherwise frames before it are skipped."""
        await self.send("pusher:ping")
        if strict:
            frame = await self.next()
            assert frame["event"] == "pusher:pong", f"unexpected frame {frame}"
        else:
            await self.next("pusher:pong")

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


MARKER_EVENT = "suite-marker"


async def nothing_more(
    server, heard: Mapping["PusherSocket", str | None], *, acted: Iterable["PusherSocket"] = ()
) -> None:
    """No frame is on its way to any socket of `heard` from what was done so far, shown without
    waiting a fixed time. Every event reaches a server's sockets through its one fan-out inbox,
    delivered in order (apps/realtime/hub.py), and the HTTP API's and the services' publishes are
    in that inbox before their requests are answered. So the sockets in `acted` (whose frames
    caused what is checked: a client event, a join, an unsubscribe) are first shown handled (a
    pong), then a marker event is triggered through the HTTP API, and each socket's next frame
    must be that marker: anything published before it would have come first. Each socket hears the
    marker on its channel in `heard`; None: on a fresh public channel it subscribes to now (a
    socket that hears nothing else, or is on a quiet presence membership)."""
    heard = dict(heard)
    for client in acted:
        await client.handled(strict=client in heard)
    for client, channel in list(heard.items()):
        if channel is None:
            channel = heard[client] = f"suite-marker-{uuid.uuid4().hex[:12]}"
            await client.send("pusher:subscribe", {"channel": channel})
            frame = await client.next()
            assert (frame["event"], frame.get("channel")) == ("pusher_internal:subscription_succeeded", channel), (
                f"unexpected frame {frame}"
            )
    marker = {"marker": uuid.uuid4().hex}
    await call(library(server).trigger, sorted(set(heard.values())), MARKER_EVENT, marker)
    for client, channel in heard.items():
        frame = await client.next()
        assert (frame["event"], frame.get("channel"), frame["data"]) == (MARKER_EVENT, channel, marker), (
            f"unexpected frame {frame}"
        )


async def until_subscriptions(server, channel: str, count: int, timeout: float = 5.0) -> None:
    """Wait until the server counts `count` connections on `channel` (the HTTP API's
    subscription_count): a socket's close is handled after its client sees it closed."""
    api = library(server)
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        info = await call(api.channel_info, channel, ["subscription_count"])
        if info.get("subscription_count", 0) == count:
            return
        assert asyncio.get_running_loop().time() < deadline, f"{channel}: {info}, not {count} subscriptions"
        await asyncio.sleep(0.02)


async def until(predicate, timeout: float, what: str) -> None:
    """wait_until for a test's own event loop: poll `predicate` (no exceptions) every 10 ms."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, f"{what}: not within {timeout} s"
        await asyncio.sleep(0.01)


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, 30))


async def closed_with(ws) -> int:
    with pytest.raises(websockets.ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return closed.value.rcvd.code


async def error_then_close(client: PusherSocket, code: int) -> dict:
    """The pusher:error the server sends before it closes the socket with `code`."""
    error = await client.next("pusher:error")
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(client.ws.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code
    return error


async def call(function, *args, **kwargs):
    """A blocking call (the `pusher` library's) off the test's event loop."""
    return await asyncio.to_thread(function, *args, **kwargs)


needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="several web processes share state through Redis")


@pytest.fixture
def server_pair(shared_live_server, request) -> tuple[LiveServer, LiveServer]:
    """Two web processes on one Redis with the default settings: the worker's shared server and
    the second one beside it (tests/support/live.py). Name channels and users afresh (a tag): the
    servers outlive the test. A test that changes a setting or stops a process uses two_servers."""
    return shared_live_server, request.getfixturevalue("shared_second_server")


@pytest.fixture
def two_servers(tmp_path):
    """`launch()` starts a web process; all share one Redis under a key prefix of their own (the
    module's protocol_server must not clear their keys when it stops, nor they its)."""
    prefix = f"{settings.CACHE_KEY_PREFIX}-pair-{uuid.uuid4().hex[:8]}"
    servers = []

    def launch(**env: str):
        server = start_daphne(tmp_path / f"web{len(servers)}", CACHE_KEY_PREFIX=prefix, **env)
        servers.append(server)
        return server

    yield launch
    for server in servers:
        stop_daphne(server)
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)
    client.close()
    shutil.rmtree(tmp_path, ignore_errors=True)


def library(server, *, secret: str | None = None, app_id: str | None = None) -> pusher.Pusher:
    return pusher.Pusher(
        app_id=app_id or str(settings.REALTIME_APP_ID),
        key=settings.REALTIME_APP_KEY,
        secret=secret or settings.REALTIME_APP_SECRET,
        host="127.0.0.1",
        port=server.port,
        ssl=False,
    )


def library_request(settings, body: dict, path_suffix: str = "events") -> Request:
    """What the official library would send: its own signed query parameters and body."""
    client = pusher.Pusher(
        app_id=str(settings.REALTIME_APP_ID), key=settings.REALTIME_APP_KEY, secret=settings.REALTIME_APP_SECRET
    )
    return Request(client._pusher_client, "POST", f"/apps/{settings.REALTIME_APP_ID}/{path_suffix}", body)


@pytest.fixture
def listener():
    """A channel-layer inbox in the fan-out group, as each web process's hub has one."""
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(FANOUT_GROUP, channel)

    def received(timeout: float = 1.0, count: int = 1):
        """The next `count` messages (None if the first does not come), read on one event loop:
        channels-redis binds a channel's receive buffer to the loop that first read it."""

        async def some():
            messages = []
            try:
                for _ in range(count):
                    messages.append(await asyncio.wait_for(layer.receive(channel), timeout))
            except TimeoutError:
                pass
            return messages

        messages = async_to_sync(some)()
        return (messages[0] if messages else None) if count == 1 else messages

    yield received
    async_to_sync(layer.group_discard)(FANOUT_GROUP, channel)


SOCKET = "1234.5678"


FORM = "application/x-www-form-urlencoded"


def ask(client, path: str, channel: str, socket_id: str = SOCKET, **headers):
    """As pusher-js asks: form-encoded socket_id and channel_name."""
    body = urlencode({"socket_id": socket_id, "channel_name": channel})
    return client.post(path, body, content_type=FORM, headers=headers or None)


KIOSK_AUTH = "/api/public/broadcasting/auth"


CLIENTS_JS = ROOT / "tests" / "realtime_js"


@pytest.fixture(scope="session")
def node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: the real pusher-js / laravel-echo clients cannot run")
    installed = CLIENTS_JS / "node_modules" / "laravel-echo" / "package.json"
    if not installed.exists():
        npm = shutil.which("npm")
        assert npm is not None, "node is installed but npm is not: cannot install tests/realtime_js (npm ci)"
        with open(CLIENTS_JS / "package.json") as lock:  # one installer at a time
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not installed.exists():
                result = subprocess.run(
                    [npm, "ci", "--no-audit", "--no-fund", "--prefix", str(CLIENTS_JS)],
                    capture_output=True,
                    text=True,
                    timeout=300,
                )
                assert result.returncode == 0, f"npm ci in tests/realtime_js failed:\n{result.stdout}\n{result.stderr}"
    return node


def run_scenario(node: str, server, scenario: str, **spec) -> dict:
    """One scenario of tests/realtime_js/scenarios.mjs (real pusher-js / laravel-echo) against
    `server`: its one JSON result line."""
    spec.update(base_url=server.base_url, ws_port=server.port, key=settings.REALTIME_APP_KEY)
    result = subprocess.run(
        [node, str(CLIENTS_JS / "scenarios.mjs"), scenario, json.dumps(spec)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=CLIENTS_JS,
    )
    assert result.returncode == 0, f"{result.stderr}\n--- server log ---\n{server.log()}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def http(server, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.base_url}{path}", data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def agent_headers(agent) -> dict:
    """A signed-in agent's cookie and XSRF header (signed in here; the server reads the session
    from the database)."""
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    return {"Cookie": cookie, "X-XSRF-TOKEN": cookies[settings.XSRF_COOKIE_NAME]}


async def subscribe_via(server, path: str, headers: dict, channel: str) -> PusherSocket:
    client = await PusherSocket.open(server.ws_url())
    body = {"socket_id": client.socket_id, "channel_name": channel}
    status, signed = await asyncio.to_thread(http, server, "POST", path, body, headers)
    assert status == 200, signed
    reply = await client.subscribe(channel, signed["auth"], signed.get("channel_data"))
    assert reply["event"] == "pusher_internal:subscription_succeeded", reply
    return client


class Broadcast(NamedTuple):
    """One real-time message a service sent: its channels (sorted), event name and data."""

    channels: list[str]
    event: str
    data: Any


# Every module that calls `apps.realtime.broadcast.broadcast` (each imports the name, so each is
# patched where it is looked up).
BROADCASTING_MODULES = (
    "apps.accounts.realtime_messages",
    "apps.billing.realtime_messages",
    "apps.chat.realtime_messages",
    "apps.kiosks.realtime_messages",
    "apps.orders.realtime_messages",
    "apps.sessions.pointing",
    "apps.sessions.realtime_messages",
    "apps.routing.queue",
    "apps.routing.realtime_messages",
)


@pytest.fixture
def broadcasts(monkeypatch) -> list[Broadcast]:
    """Every real-time message the services send, in order, instead of sending it."""
    sent: list[Broadcast] = []

    def record(channels, event, data, **extra):
        sent.append(Broadcast(sorted(channels), event, data))

    for module in BROADCASTING_MODULES:
        monkeypatch.setattr(f"{module}.broadcast", record)
    return sent
