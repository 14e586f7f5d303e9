"""The real daphne process itself (handshake, shutdown close code). The server fixtures and the
Pusher WebSocket client the real-time tests share live in tests/support/realtime.py.

The child process gets the test process's realtime credentials and its Redis (when REDIS_URL is
set), under a cache prefix of its own that is cleaned when it stops. Tests that need the database
in the child (`live_app`) make their rows on the worker's live database, committed, which the
worker's shared server reads (tests/support/live.py); a server of a test's own opens it too on
PostgreSQL, and a copy of it made at its start on the embedded SQLite default.
"""

import asyncio
import json
import signal

import pytest
import websockets
from django.conf import settings

from apps.realtime import protocol
from tests.support.processes import start_daphne, stop_daphne
from tests.support.realtime import PusherSocket, run

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
    server = start_daphne(tmp_path, SHUTDOWN_GRACE_SECONDS="10")  # its own, with the default grace: the test stops it
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
