"""One client cannot take every WebSocket slot: a per-address limit (4100, so pusher-js backs off
and retries) and an app-wide limit across every web process (4004, Pusher's "over connection
quota"), both with the error frame before the close; a closed connection gives its slot back. The
address rule is the HTTP surfaces' (TRUSTED_PROXIES)."""

import asyncio
import json
import time

import pytest
import websockets
from django.conf import settings
from django.test import RequestFactory

from apps.api.inputs import client_ip
from apps.realtime import protocol
from apps.realtime.addresses import client_address
from tests.support.processes import start_daphne, stop_daphne
from tests.support.realtime import PusherSocket

pytestmark = pytest.mark.live


async def refused_with(url: str) -> tuple[int, int] | None:
    """(the pusher:error code, the close code) of a refused handshake; None when accepted."""
    async with websockets.connect(url, open_timeout=5) as ws:
        error = json.loads(await ws.recv())
        if error["event"] == "pusher:connection_established":
            return None
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 5)
        return json.loads(error["data"])["code"], closed.value.rcvd.code


def test_one_address_gets_at_most_its_share_and_gets_a_slot_back_when_one_closes(tmp_path):
    server = start_daphne(tmp_path, REALTIME_MAX_CONNECTIONS_PER_ADDRESS="3")
    try:

        async def scenario():
            clients = [await PusherSocket.open(server.ws_url()) for _ in range(3)]
            assert await refused_with(server.ws_url()) == (protocol.OVER_CAPACITY, protocol.OVER_CAPACITY)
            await clients.pop().close()
            async with asyncio.timeout(5):  # the close reaches the server
                while True:
                    try:
                        clients.append(await PusherSocket.open(server.ws_url()))
                        break
                    except (AssertionError, websockets.ConnectionClosed):
                        await asyncio.sleep(0.1)
            for client in clients:
                await client.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        stop_daphne(server)


def test_the_app_limit_holds_across_processes(tmp_path):
    """With Redis the limit counts every process's connections; on the embedded default (one
    process) it is that process's."""
    servers = [start_daphne(tmp_path / "a", REALTIME_MAX_APP_CONNECTIONS="4", REALTIME_FANOUT_CHECK_SECONDS="0.2")]
    if settings.REDIS_URL:
        servers.append(
            start_daphne(tmp_path / "b", REALTIME_MAX_APP_CONNECTIONS="4", REALTIME_FANOUT_CHECK_SECONDS="0.2")
        )
    try:

        async def scenario():
            clients = []
            for i in range(4):
                clients.append(await PusherSocket.open(servers[i % len(servers)].ws_url()))
            deadline = time.monotonic() + 5  # each process learns the others' count within a check
            while True:
                codes = [await refused_with(server.ws_url()) for server in servers]
                if all(code == (protocol.OVER_CONNECTION_QUOTA,) * 2 for code in codes) or time.monotonic() > deadline:
                    break
                await asyncio.sleep(0.2)
            assert codes == [(protocol.OVER_CONNECTION_QUOTA, protocol.OVER_CONNECTION_QUOTA)] * len(servers)
            for client in clients:
                await client.close()

        asyncio.run(asyncio.wait_for(scenario(), 60))
    finally:
        for server in servers:
            stop_daphne(server)


@pytest.mark.parametrize("trusted", [[], ["10.0.0.7"], ["10.0.0.0/8", "198.51.100.1"]])
@pytest.mark.parametrize("forwarded", [None, "203.0.113.9", "198.51.100.1, 203.0.113.9", "not-an-ip"])
def test_the_address_rule_is_the_http_surfaces_one(settings, trusted, forwarded):
    settings.TRUSTED_PROXIES = trusted
    headers = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.7", **headers)
    scope = {"client": ("10.0.0.7", 5555), "headers": [(b"x-forwarded-for", forwarded.encode())] if forwarded else []}
    assert client_address(scope) == client_ip(request)
