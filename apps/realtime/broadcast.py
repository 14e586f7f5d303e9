"""The broadcast API every app calls: `broadcast(channels, event, data)`.

The send is scheduled with `transaction.on_commit`, so nothing goes out for a change that rolls
back (outside a transaction it goes at once). It travels through the channel layer as one message
to every web process (hub.py), so with channels-redis each process delivers to its own
connections. A failing layer (Redis down) is logged and swallowed: real-time is best effort and
the polling endpoints stay the truth.
"""

import asyncio
import logging
import os
import threading
from collections.abc import Mapping

from channels.layers import get_channel_layer
from django.db import transaction

from apps.realtime import cache_channels
from apps.realtime.fanout import FANOUT_GROUP, ChannelLayer, fanout_message
from apps.realtime.protocol import FanoutMessage
from apps.realtime.user_channels import valid_target

logger = logging.getLogger(__name__)

SEND_TIMEOUT_SECONDS = 5.0

_server_loop: asyncio.AbstractEventLoop | None = None  # the ASGI server's loop, in a web process
_sender: tuple[int, asyncio.AbstractEventLoop] | None = None  # (pid, loop) of sender_loop()
_sender_lock = threading.Lock()


def remember_server_loop() -> None:
    """Called from the WebSocket consumer: the in-memory layer only delivers on the loop that
    owns its queues, so sends from other threads of a web process are handed to that loop."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The web process's loop once a WebSocket connected there (where the embedded mode's
    in-memory state lives), else None."""
    loop = _server_loop
    return loop if loop is not None and loop.is_running() else None


def broadcast(channels: list[str], event: str, data: Mapping[str, object], *, revoke: bool = False) -> None:
    """Send `event` with `data` to every connection subscribed to any of `channels`, after commit.
    `revoke`: each of those connections is then dropped from the channel. A signature is checked
    once, at subscription; when who may join changes (a call's agent after a transfer) the event
    tells the clients to subscribe again, and the channel rule decides afresh who is let back."""
    message = layer_message(channels, event, data, revoke=revoke)
    transaction.on_commit(lambda: send_now(message))


def layer_message(
    channels: list[str], event: str, data: object, *, skip_socket_id: str | None = None, revoke: bool = False
) -> FanoutMessage:
    """The one channel-layer message for an event. `data` that is already a string (the HTTP
    API) is sent as it is; a dict is JSON-encoded once per frame."""
    bad = [channel for channel in channels if not valid_target(channel)]
    if bad:
        raise ValueError(f"invalid channel names: {bad!r}")
    return fanout_message(list(channels), event, data, skip=skip_socket_id, revoke=revoke)


def send_now(message: FanoutMessage) -> None:
    """Hand the message to the channel layer now; never raises."""
    if not message.get("channels"):
        return
    cache_channels.remember(message)  # a server's event: a cache channel keeps it (not a client's)
    try:
        loop = _server_loop
        if loop is not None and loop.is_running():
            if _on_loop_thread(loop):
                loop.create_task(_send_logged(message))
                return
            asyncio.run_coroutine_threadsafe(send(message), loop).result(SEND_TIMEOUT_SECONDS)
        else:
            asyncio.run_coroutine_threadsafe(send(message), sender_loop()).result(SEND_TIMEOUT_SECONDS)
    except Exception:
        logger.exception("real-time broadcast of %s failed; clients fall back to polling", message.get("event"))


def sender_loop() -> asyncio.AbstractEventLoop:
    """The process's own event loop for sends where no server loop runs (a Celery worker's child,
    a management command): a daemon thread, started on first use and again in a forked child.
    channels-redis keeps its Redis connections per event loop, so one loop for the process's life
    keeps one connection, where a fresh loop per send (async_to_sync) opened one per broadcast."""
    global _sender
    current = _sender
    if current is not None and current[0] == os.getpid():
        return current[1]
    with _sender_lock:
        if _sender is None or _sender[0] != os.getpid():
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="broadcast-sender", daemon=True).start()
            _sender = (os.getpid(), loop)
        return _sender[1]


def _on_loop_thread(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:  # no loop running in this thread
        return False


async def send(message: FanoutMessage) -> None:
    layer: ChannelLayer | None = get_channel_layer()  # channels ships no type information
    if layer is not None:
        # asyncio.timeout, not wait_for: on Python 3.11 wait_for loses a cancellation that meets
        # the send's completion, and a background loop calling this (the presence lease) would
        # then outlive its cancel and hang its event loop's shutdown.
        async with asyncio.timeout(SEND_TIMEOUT_SECONDS):
            await layer.group_send(FANOUT_GROUP, message)


async def _send_logged(message: FanoutMessage) -> None:
    try:
        await send(message)
    except Exception:
        logger.exception("real-time broadcast of %s failed", message.get("event"))
