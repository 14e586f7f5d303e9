"""The broadcast API every app calls: `broadcast(channels, event, data)`.

The send is scheduled with `transaction.on_commit`, so nothing goes out for a change that rolls
back (outside a transaction it goes at once). It travels through the channel layer, so with
channels-redis every web process delivers to its own connections. A failing layer (Redis down)
is logged and swallowed: real-time is best effort, the polling endpoints stay the truth.
"""

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from apps.realtime import protocol

logger = logging.getLogger(__name__)

SEND_CONCURRENCY = 32  # group sends in flight at once for one broadcast to many channels
SEND_TIMEOUT_SECONDS = 5.0

_server_loop: asyncio.AbstractEventLoop | None = None  # the ASGI server's loop, in a web process


def remember_server_loop() -> None:
    """Called from the WebSocket consumer: the in-memory layer only delivers to consumers on the
    loop that created their queues, so sends from other threads are handed to that loop."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def broadcast(channels: list[str], event: str, data: dict) -> None:
    """Send `event` with `data` to every connection subscribed to any of `channels`, after commit."""
    messages = layer_messages(channels, event, data)
    transaction.on_commit(lambda: send_now(messages))


def layer_messages(channels: list[str], event: str, data, *, skip_socket_id: str | None = None) -> list:
    """One channel-layer message per channel, each carrying its finished frame. `data` that is
    already a string (the HTTP API) is sent as it is."""
    bad = [channel for channel in channels if not protocol.valid_channel_name(channel)]
    if bad:
        raise ValueError(f"invalid channel names: {bad!r}")
    return [
        (
            protocol.group_name(channel),
            {"type": "realtime.frame", "frame": protocol.frame(event, data, channel), "skip": skip_socket_id},
        )
        for channel in channels
    ]


def send_now(messages: list[tuple[str, dict]]) -> None:
    """Hand the frames to the channel layer now; never raises."""
    if not messages:
        return
    try:
        loop = _server_loop
        if loop is not None and loop.is_running():
            if _on_loop_thread(loop):
                loop.create_task(_send_all_logged(messages))
                return
            asyncio.run_coroutine_threadsafe(_send_all(messages), loop).result(SEND_TIMEOUT_SECONDS)
        else:
            async_to_sync(_send_all)(messages)
    except Exception:
        logger.exception("real-time broadcast to %d channel(s) failed; clients fall back to polling", len(messages))


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop running in this thread
        return False


async def _send_all(messages: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if len(messages) == 1:
        group, message = messages[0]
        await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT_SECONDS)
        return
    limit = asyncio.Semaphore(SEND_CONCURRENCY)

    async def one(group: str, message: dict) -> None:
        async with limit:
            await layer.group_send(group, message)

    await asyncio.wait_for(asyncio.gather(*(one(g, m) for g, m in messages)), SEND_TIMEOUT_SECONDS)


async def _send_all_logged(messages: list[tuple[str, dict]]) -> None:
    try:
        await _send_all(messages)
    except Exception:
        logger.exception("real-time broadcast to %d channel(s) failed", len(messages))
