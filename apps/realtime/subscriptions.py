"""Which channels some connection holds now, for domain code that runs outside the WebSocket
server (the router's presence tick: an agent counts as signed in while its dashboard holds its
private channel). A read of presence.py's shared state, the same one the Pusher HTTP API's
`GET /channels` reads; nothing in the connection lifecycle changes for it."""

import asyncio
import logging

from asgiref.sync import async_to_sync
from django.conf import settings

from apps.realtime.broadcast import server_loop
from apps.realtime.presence import presence_store

logger = logging.getLogger(__name__)

READ_TIMEOUT_SECONDS = 2.0


def subscribed_channels(prefix: str) -> set[str] | None:
    """The channels starting with `prefix` that at least one connection of any live process is
    subscribed to; None when the state cannot be read (Redis down: callers keep what they knew).
    In the embedded mode the state lives in the web process's memory: a process without a
    WebSocket server (a management command, a test process) holds no connection, so the answer
    is the empty set."""

    async def read() -> set[str]:
        return set(await presence_store().subscription_counts(prefix))

    async def read_and_close() -> set[str]:
        store = presence_store()  # a loop of its own, made for this read: close its client
        try:
            return set(await store.subscription_counts(prefix))
        finally:
            await store.close()

    loop = server_loop()
    try:
        if loop is not None:
            return asyncio.run_coroutine_threadsafe(read(), loop).result(READ_TIMEOUT_SECONDS)
        if settings.REDIS_URL:
            return async_to_sync(read_and_close)()
    except Exception:
        logger.warning("the real-time subscriptions could not be read", exc_info=True)
        return None
    return set()
