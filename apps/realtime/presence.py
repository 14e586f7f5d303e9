"""Who is subscribed where, shared by every web process: presence members and subscription counts.

The WebSocket consumer writes here (subscribe, unsubscribe, presence join and leave); the Pusher
HTTP API's read side (`GET /apps/{id}/channels...`) reads here. With REDIS_URL the state lives in
Redis (presence_redis.py), so two daphne processes behind a load balancer report the same members
and counts. Without it (embedded mode, one process) it lives in this process's memory.

A member is a user id; a user may hold several connections. `member_added` is due when a user's
first connection joins and `member_removed` when its last one leaves. A process that dies cannot
say goodbye: in Redis its entries hang off a lease it renews every few seconds, and the other
processes drop the entries of an expired lease and send `member_removed` (see presence_redis.py).
"""

import asyncio
from collections import Counter
from typing import Protocol

from django.conf import settings

from apps.realtime.presence_shared import Change, announce_gone, grace_seconds
from apps.realtime.protocol import MemberId


class PresenceStore(Protocol):
    """Where the shared state lives: this process's memory (MemoryPresence) or Redis (RedisPresence)."""

    async def close(self) -> None: ...
    async def census(self, here: int) -> int: ...
    async def subscribe(self, channel: str) -> None: ...
    async def unsubscribe(self, channel: str) -> None: ...
    async def join(
        self, channel: str, socket_id: str, user_id: MemberId, user_info: object, *, quiet: bool = False
    ) -> Change: ...
    async def leave(self, channel: str, socket_id: str) -> Change: ...
    async def subscription_counts(self, prefix: str = "") -> dict[str, int]: ...
    async def subscription_count(self, channel: str) -> int: ...
    async def user_ids(self, channel: str) -> list[MemberId]: ...
    async def user_counts(self, channels: list[str]) -> dict[str, int]: ...


class MemoryPresence:
    """One process holds every connection, so nothing can die unannounced: no leases."""

    def __init__(self) -> None:
        # A user is its id as signed: 2 and "2" are two members (the JSON types differ).
        self._sockets: dict[str, dict[str, MemberId]] = {}  # channel -> socket -> user
        self._members: dict[str, dict[MemberId, object]] = {}  # channel -> user -> info
        self._counts: dict[str, Counter[MemberId]] = {}  # channel -> user -> its connections (a join is O(1))
        self._leaving: dict[tuple[str, MemberId], asyncio.TimerHandle] = {}  # (channel, user) in its grace
        self._announcing: set[asyncio.Task[None]] = set()  # member_removed sends under way
        self._subscriptions: Counter[str] = Counter()  # channel -> connections subscribed

    async def close(self) -> None:
        """Nothing to release: the state lives and dies with the process."""

    async def census(self, here: int) -> int:
        """The other processes' open connections: there are none."""
        return 0

    async def subscribe(self, channel: str) -> None:
        self._subscriptions[channel] += 1

    async def unsubscribe(self, channel: str) -> None:
        self._subscriptions[channel] -= 1
        if self._subscriptions[channel] <= 0:
            del self._subscriptions[channel]

    async def join(
        self, channel: str, socket_id: str, user_id: MemberId, user_info: object, *, quiet: bool = False
    ) -> Change:
        """A quiet member is told only about itself (no copy of the member list per join)."""
        sockets = self._sockets.setdefault(channel, {})
        members = self._members.setdefault(channel, {})
        counts = self._counts.setdefault(channel, Counter())
        seen = {user_id: user_info} if quiet else None
        if socket_id in sockets:
            return Change(members=seen or dict(members))
        sockets[socket_id] = user_id
        counts[user_id] += 1
        members[user_id] = user_info
        await self.subscribe(channel)
        leaving = self._leaving.pop((channel, user_id), None)
        if leaving is not None:  # back within its grace: it was never gone
            leaving.cancel()
        return Change(added=counts[user_id] == 1 and leaving is None, members=seen or dict(members))

    async def leave(self, channel: str, socket_id: str) -> Change:
        sockets = self._sockets.get(channel, {})
        user_id = sockets.pop(socket_id, None)
        if user_id is None:
            return Change()
        await self.unsubscribe(channel)
        counts = self._counts[channel]
        counts[user_id] -= 1
        if counts[user_id] > 0:
            return Change()
        del counts[user_id]
        if grace_seconds() > 0:
            loop = asyncio.get_running_loop()
            self._leaving[(channel, user_id)] = loop.call_later(grace_seconds(), self._vacate, channel, user_id)
            return Change()
        self._drop_member(channel, user_id)
        return Change(gone=[user_id])

    def _vacate(self, channel: str, user_id: MemberId) -> None:
        self._leaving.pop((channel, user_id), None)
        self._drop_member(channel, user_id)
        task = asyncio.get_running_loop().create_task(announce_gone(channel, user_id))
        self._announcing.add(task)
        task.add_done_callback(self._announcing.discard)

    def _drop_member(self, channel: str, user_id: MemberId) -> None:
        self._members.get(channel, {}).pop(user_id, None)
        if not self._sockets.get(channel) and not self._members.get(channel):
            self._sockets.pop(channel, None)
            self._members.pop(channel, None)
            self._counts.pop(channel, None)

    # ------------------------------------------------------------------ reads (the HTTP API)

    async def subscription_counts(self, prefix: str = "") -> dict[str, int]:
        return {channel: count for channel, count in self._subscriptions.items() if channel.startswith(prefix)}

    async def subscription_count(self, channel: str) -> int:
        return self._subscriptions.get(channel, 0)

    async def user_ids(self, channel: str) -> list[MemberId]:
        return list(self._members.get(channel, {}))

    async def user_counts(self, channels: list[str]) -> dict[str, int]:
        return {channel: len(self._members.get(channel, {})) for channel in channels}


_store: dict[int, tuple[asyncio.AbstractEventLoop, PresenceStore]] = {}


def presence_store() -> PresenceStore:
    """This event loop's store (a Redis client belongs to the loop it was made on; daphne runs
    one loop per process, and the HTTP API's sync views run their reads on it)."""
    loop = asyncio.get_running_loop()
    known = _store.get(id(loop))
    if known is None or known[0] is not loop:  # a new loop (ids of closed loops are reused)
        for key, (other, _) in list(_store.items()):
            if other.is_closed():
                del _store[key]
        if settings.REDIS_URL:
            from apps.realtime.presence_redis import RedisPresence

            store: PresenceStore = RedisPresence(settings.REDIS_URL, f"{settings.CACHE_KEY_PREFIX}:rt")
        else:
            _store.clear()  # embedded mode: one loop per process
            store = MemoryPresence()
        known = _store[id(loop)] = (loop, store)
    return known[1]
