"""The official `pusher` Python server library publishes through our HTTP API
(POST /apps/{app_id}/events, /batch_events) to real WebSocket subscribers, and its channel
authentication is accepted by our socket."""

import asyncio

import pusher
import pytest
from django.conf import settings
from pusher.errors import PusherBadAuth

from tests.support.realtime import PusherSocket, nothing_more, run

pytestmark = pytest.mark.live


def library(server, secret: str | None = None) -> pusher.Pusher:
    return pusher.Pusher(
        app_id=str(settings.REALTIME_APP_ID),
        key=settings.REALTIME_APP_KEY,
        secret=secret or settings.REALTIME_APP_SECRET,
        host="127.0.0.1",
        port=server.port,
        ssl=False,
    )


async def subscribed(server, channel: str, client_library: pusher.Pusher) -> PusherSocket:
    """A socket on `channel`, signed by the library's own `authenticate`."""
    client = await PusherSocket.open(server.ws_url())
    signed = client_library.authenticate(channel=channel, socket_id=client.socket_id)
    reply = await client.subscribe(channel, signed["auth"])
    assert reply["event"] == "pusher_internal:subscription_succeeded", reply
    return client


def test_the_library_triggers_to_several_channels_and_excludes_the_sender(protocol_server):
    publisher = library(protocol_server)

    async def scenario():
        agent_one = await subscribed(protocol_server, "private-agent.1", publisher)
        agent_two = await subscribed(protocol_server, "private-agent.2", publisher)
        body = {"session": {"id": "ses_1", "kiosk": {"id": "3"}}}
        await asyncio.to_thread(publisher.trigger, ["private-agent.1", "private-agent.2"], "SessionIncoming", body)
        for client, channel in ((agent_one, "private-agent.1"), (agent_two, "private-agent.2")):
            got = await client.next("SessionIncoming")
            assert (got["channel"], got["data"]) == (channel, body)
        await asyncio.to_thread(publisher.trigger, "private-agent.1", "Typing", {"x": 1}, socket_id=agent_one.socket_id)
        await nothing_more(protocol_server, {agent_one: "private-agent.1"})  # the connection that caused it is skipped

    run(scenario())


def test_the_library_triggers_a_batch(protocol_server):
    publisher = library(protocol_server)

    async def scenario():
        kiosk = await subscribed(protocol_server, "private-kiosk.9", publisher)
        batch = [
            {"channel": "private-kiosk.9", "name": "OrderUpdated", "data": {"total_cents": 100}},
            {"channel": "private-kiosk.9", "name": "PaymentRequested", "data": {"client_secret": "pi_1_secret"}},
        ]
        await asyncio.to_thread(publisher.trigger_batch, batch)
        assert (await kiosk.next())["data"] == {"total_cents": 100}
        assert (await kiosk.next())["event"] == "PaymentRequested"

    run(scenario())


def test_a_library_with_the_wrong_secret_is_refused(protocol_server):
    with pytest.raises(PusherBadAuth):
        library(protocol_server, secret="not-the-secret").trigger("news", "E", {})
