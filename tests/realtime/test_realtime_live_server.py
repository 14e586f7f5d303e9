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
import signal

import pytest
import websockets
from django.conf import settings

from apps.realtime import protocol
from tests.support.processes import CHILD_PREFIX, LiveServer, database_url_for_child, start_daphne, stop_daphne

__all__ = ["CHILD_PREFIX", "LiveServer", "start_daphne", "stop_daphne"]  # imported by the other realtime tests


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
