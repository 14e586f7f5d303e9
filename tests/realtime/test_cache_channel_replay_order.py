"""A cache channel's last event is sent before any live event of that channel that arrives while the
cache is read: a replayed (older) event must never reach a subscriber after a newer live one. The
race is forced here: the cache read (on a worker thread) lets the hub deliver a live event first."""

import asyncio
import json

from apps.realtime import cache_channels
from apps.realtime.consumer import PusherConsumer
from apps.realtime.hub import Hub


def frames_of(monkeypatch, channel: str, read_with_live_event_first):
    """What one subscriber receives on `channel` when a live event arrives during the cache read."""
    sent: list[str] = []

    async def scenario():
        consumer = PusherConsumer()
        consumer.socket_id = "1.1"
        consumer.held_for_replay = {}

        async def base_send(message):
            sent.append(message["text"])

        consumer.base_send = base_send
        hub = Hub()
        hub.subscribers = {channel: {consumer}}
        loop = asyncio.get_running_loop()

        class LiveEventDuringTheRead:
            def get(self, key):
                live = {"event": "BoardChanged", "channels": [channel], "data": {"n": 2}}
                asyncio.run_coroutine_threadsafe(hub.deliver(live), loop).result(timeout=5)
                return read_with_live_event_first

        monkeypatch.setattr(cache_channels, "cache", LiveEventDuringTheRead())
        consumer._hold_until_replayed(channel)
        await consumer._replay(channel)

    asyncio.run(scenario())
    return [json.loads(text) for text in sent]


def test_the_replayed_event_comes_before_a_live_event_that_arrived_during_the_read(monkeypatch):
    channel = "cache-board.1"
    frames = frames_of(monkeypatch, channel, {"event": "BoardChanged", "data": {"n": 1}})
    assert [(frame["event"], json.loads(frame["data"])) for frame in frames] == [  # Pusher: data as JSON text
        ("BoardChanged", {"n": 1}),  # the cached (older) event first
        ("BoardChanged", {"n": 2}),  # then the live one, held meanwhile
    ]
    assert [frame.get("channel") for frame in frames] == [channel, channel]


def test_a_cache_miss_also_comes_first(monkeypatch):
    frames = frames_of(monkeypatch, "private-cache-call.7", None)
    assert [frame["event"] for frame in frames] == ["pusher:cache_miss", "BoardChanged"]


def test_after_the_replay_live_events_go_straight_out():
    sent: list[str] = []

    async def scenario():
        consumer = PusherConsumer()
        consumer.held_for_replay = {}

        async def base_send(message):
            sent.append(message["text"])

        consumer.base_send = base_send
        await consumer.channel_send("cache-board.2", {"type": "websocket.send", "text": "live", "bytes": None})

    asyncio.run(scenario())
    assert sent == ["live"]
