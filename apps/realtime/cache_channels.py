"""Cache channels (`cache-`, `private-cache-`, `presence-cache-`), as Pusher and Laravel Reverb have
them: the channel remembers its last server event, and a new subscriber gets it right after
`pusher_internal:subscription_succeeded`, or `pusher:cache_miss` when there is none.

Only events a server triggers (the HTTP API, `broadcast()`) are remembered, not client events: a
client could otherwise set what every later subscriber is shown first. The event is written to the
project's cache (Redis with REDIS_URL, so every web process reads what any process wrote; this
process's memory in the embedded mode) for REALTIME_CACHE_CHANNEL_SECONDS (Pusher: 30 min), before
it is handed to the channel layer: a subscriber that joins meanwhile may get it twice (cached,
then live), never not at all. The cache fails open: with Redis away a subscriber gets a cache miss.
"""

import asyncio
import json
import logging
from typing import Protocol

from django.conf import settings
from django.core.cache import cache

from apps.realtime import protocol

logger = logging.getLogger(__name__)

PREFIXES = ("cache-", "private-cache-", "presence-cache-")
CACHE_MISS = "pusher:cache_miss"


def is_cache_channel(channel: str) -> bool:
    return channel.startswith(PREFIXES)


def _key(channel: str) -> str:
    return f"realtime:last-event:{channel}"


class Listener(Protocol):
    """A connection that can be written a frame (consumer.PusherConsumer)."""

    async def send(self, text_data: str) -> None: ...


def remember(message: protocol.FanoutMessage) -> None:
    """Keep a server-triggered fan-out message's event as the last one of each cache channel it
    names. Never raises: the event is still delivered live."""
    channels = [channel for channel in message.get("channels") or () if is_cache_channel(channel)]
    if not channels:
        return
    last = {"event": message.get("event"), "data": message.get("data")}
    try:
        cache.set_many({_key(channel): last for channel in channels}, timeout=settings.REALTIME_CACHE_CHANNEL_SECONDS)
    except Exception:
        logger.warning("could not keep the last event of %s", channels, exc_info=True)


async def replay(consumer: Listener, channel: str) -> None:
    """After a subscription to a cache channel succeeded: its last event, or `pusher:cache_miss`.
    The read runs on a worker thread (the cache client is synchronous), not on the server loop."""
    if not is_cache_channel(channel):
        return
    try:
        last = await asyncio.to_thread(cache.get, _key(channel))
    except Exception:
        logger.warning("could not read the last event of %s", channel, exc_info=True)
        last = None
    if isinstance(last, dict) and isinstance(last.get("event"), str):
        await consumer.send(protocol.FrameMaker(last["event"], last.get("data")).for_channel(channel))
    else:
        await consumer.send(json.dumps({"event": CACHE_MISS, "channel": channel}, separators=(",", ":")))
