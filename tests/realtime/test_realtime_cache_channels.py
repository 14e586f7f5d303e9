"""Cache channels (`cache-`, `private-cache-`, `presence-cache-`) against live daphne servers, with
real WebSocket clients and events triggered by the official `pusher` library: a subscriber to an
empty cache channel gets `pusher:cache_miss`; a later subscriber gets the channel's last server
event right after its subscription succeeded; the event expires; across two web processes on
Redis, one process's trigger is what the other's subscriber gets; client events are not cached."""

import asyncio
import time
import uuid

import pytest

from apps.realtime import signing
from tests.support.processes import start_daphne, stop_daphne
from tests.support.realtime import (
    PusherSocket,
    call,
    library,
    needs_redis,
    nothing_more,
    run,
)

pytestmark = pytest.mark.live


def tag() -> str:
    return uuid.uuid4().hex[:10]


async def subscribed(server, channel: str, user_id: str | None = None) -> tuple[PusherSocket, dict]:
    """A socket subscribed to `channel` and the frame that follows its subscription_succeeded."""
    client = await PusherSocket.open(server.ws_url())
    auth = channel_data = None
    if user_id is not None:
        channel_data = f'{{"user_id":"{user_id}","user_info":{{}}}}'
    if not channel.startswith("cache-"):
        auth = signing.channel_auth(client.socket_id, channel, channel_data)
    reply = await client.subscribe(channel, auth, channel_data)
    assert reply["event"] == "pusher_internal:subscription_succeeded", reply
    return client, await client.next()


@pytest.mark.parametrize("prefix", ["cache-", "private-cache-", "presence-cache-"])
def test_an_empty_cache_channel_answers_cache_miss_and_a_later_subscriber_gets_the_last_event(
    protocol_server,
    prefix,
):
    channel = f"{prefix}scores.{tag()}"
    api = library(protocol_server)

    async def scenario():
        first, miss = await subscribed(protocol_server, channel, "user.1" if prefix.startswith("presence") else None)
        assert miss == {"event": "pusher:cache_miss", "channel": channel, "data": None}
        await call(api.trigger, channel, "ScoreChanged", {"home": 1, "away": 0})
        await call(api.trigger, channel, "ScoreChanged", {"home": 2, "away": 0})
        for _ in range(2):  # the first subscriber hears both live
            assert (await first.next("ScoreChanged"))["channel"] == channel
        later, last = await subscribed(protocol_server, channel, "user.2" if prefix.startswith("presence") else None)
        assert last == {"event": "ScoreChanged", "channel": channel, "data": {"home": 2, "away": 0}}
        await nothing_more(protocol_server, {later: channel})  # the last event only, once
        await first.close()
        await later.close()

    run(scenario())


def test_only_cache_channels_remember_and_client_events_are_not_cached(protocol_server):
    plain, cached = f"news-{tag()}", f"private-cache-call.{tag()}"
    api = library(protocol_server)

    async def scenario():
        await call(api.trigger, [plain], "Headline", {"n": 1})
        listener = await PusherSocket.open(protocol_server.ws_url())
        reply = await listener.subscribe(plain)
        assert reply["event"] == "pusher_internal:subscription_succeeded"
        await nothing_more(
            protocol_server, {listener: plain}
        )  # a plain channel has no memory, and no cache_miss either

        sender, miss = await subscribed(protocol_server, cached)
        assert miss["event"] == "pusher:cache_miss"
        await sender.send("client-typing", {"who": "sender"}, channel=cached)
        receiver, after = await subscribed(protocol_server, cached)
        assert after["event"] == "pusher:cache_miss"  # a client's event set nothing
        await sender.send("client-typing", {"who": "sender"}, channel=cached)
        assert (await receiver.next("client-typing"))["data"] == {"who": "sender"}  # it was delivered live

    run(scenario())


def test_a_batch_fills_the_cache_of_each_channel(protocol_server):
    first, second = f"cache-board.{tag()}", f"cache-board.{tag()}"
    api = library(protocol_server)

    async def scenario():
        await call(
            api.trigger_batch,
            [
                {"channel": first, "name": "BoardChanged", "data": {"n": 1}},
                {"channel": second, "name": "BoardChanged", "data": {"n": 2}},
            ],
        )
        for channel, n in ((first, 1), (second, 2)):
            _, last = await subscribed(protocol_server, channel)
            assert last == {"event": "BoardChanged", "channel": channel, "data": {"n": n}}

    run(scenario())


def test_the_last_event_expires(tmp_path):
    seconds = 2.0  # production: REALTIME_CACHE_CHANNEL_SECONDS 1800, Pusher's 30 minutes
    server = start_daphne(tmp_path, REALTIME_CACHE_CHANNEL_SECONDS=str(seconds))
    channel = f"cache-price.{tag()}"
    try:

        async def scenario():
            triggered_before = time.monotonic()
            await call(library(server).trigger, channel, "PriceChanged", {"cents": 250})
            _, first = await subscribed(server, channel)
            if time.monotonic() - triggered_before < seconds:  # a loaded machine may take longer
                assert first["event"] == "PriceChanged", first
            deadline = triggered_before + seconds + 10
            while True:
                client, last = await subscribed(server, channel)
                await client.close()
                if last["event"] == "pusher:cache_miss":
                    break
                assert time.monotonic() < deadline, "the cached event never expired"
                await asyncio.sleep(0.2)
            assert time.monotonic() - triggered_before >= seconds  # not before its time

        run(scenario())
    finally:
        stop_daphne(server)


@needs_redis
def test_the_last_event_is_shared_by_every_web_process(server_pair):
    first, second = server_pair
    channel = f"presence-cache-room.{tag()}"

    async def scenario():
        _, miss = await subscribed(second, channel, "user.1")
        assert miss["event"] == "pusher:cache_miss"
        await call(library(first).trigger, channel, "RoomChanged", {"open": True})  # through the other process
        _, last = await subscribed(second, channel, "user.2")
        assert last == {"event": "RoomChanged", "channel": channel, "data": {"open": True}}

    run(scenario())
