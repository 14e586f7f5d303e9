"""Who is in each presence channel, shared by every web process.

With REDIS_URL the member list lives in Redis, so two daphne processes behind a load balancer
report the same members (Laravel Reverb keeps it per node; we must not). Without it (embedded
mode, one process) it lives in this process's memory.

A member is a user id; a user may hold several connections. `member_added` is due when a user's
first connection joins and `member_removed` when its last one leaves. A process that dies cannot
say goodbye, so every connection entry carries a deadline that the live connection keeps pushing
forward (`touch`); entries past it are dropped, and reported as gone, by the next operation on
that channel.
"""

import json
import time
from dataclasses import dataclass, field

from django.conf import settings

KEY_TTL_SECONDS = 24 * 3600


def entry_ttl_seconds() -> float:
    """How long a connection entry outlives its last sign of life: a live connection shows one
    at least every activity_timeout + pong_timeout (or the server closes it)."""
    return 2 * (settings.REALTIME_ACTIVITY_TIMEOUT + settings.REALTIME_PONG_TIMEOUT) + 60


@dataclass
class Change:
    added: bool = False  # this join was the user's first connection
    gone: list[str] = field(default_factory=list)  # users whose last connection left
    members: dict[str, object] = field(default_factory=dict)  # user id -> user_info


# KEYS: sockets (hash socket -> user), deadlines (zset socket -> unix time), members (hash user ->
# info JSON), counts (hash user -> connections). ARGV: op, now, socket, user, info, deadline.
_SCRIPT = """
local function drop(sid)
  local uid = redis.call('HGET', KEYS[1], sid)
  redis.call('ZREM', KEYS[2], sid)
  if not uid then return nil end
  redis.call('HDEL', KEYS[1], sid)
  if redis.call('HINCRBY', KEYS[4], uid, -1) <= 0 then
    redis.call('HDEL', KEYS[4], uid)
    redis.call('HDEL', KEYS[3], uid)
    return uid
  end
  return nil
end
local op, now = ARGV[1], tonumber(ARGV[2])
local gone = {}
for _, sid in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)) do
  local uid = drop(sid)
  if uid then table.insert(gone, uid) end
end
local added = 0
if op == 'join' then
  if not redis.call('HGET', KEYS[1], ARGV[3]) then
    redis.call('HSET', KEYS[1], ARGV[3], ARGV[4])
    if redis.call('HINCRBY', KEYS[4], ARGV[4], 1) == 1 then added = 1 end
  end
  redis.call('HSET', KEYS[3], ARGV[4], ARGV[5])
  redis.call('ZADD', KEYS[2], ARGV[6], ARGV[3])
elseif op == 'leave' then
  local uid = drop(ARGV[3])
  if uid then table.insert(gone, uid) end
elseif op == 'touch' then
  redis.call('ZADD', KEYS[2], 'XX', ARGV[6], ARGV[3])
end
for i = 1, 4 do redis.call('EXPIRE', KEYS[i], ARGV[7]) end
local members = {}
if op == 'join' then members = redis.call('HGETALL', KEYS[3]) end
return {added, gone, members}
"""


class RedisPresence:
    def __init__(self, url: str, prefix: str):
        import redis.asyncio

        # A blocking pool: a burst of joins waits for a connection instead of failing.
        pool = redis.asyncio.BlockingConnectionPool.from_url(url, max_connections=50, timeout=10)
        self._redis = redis.asyncio.Redis(connection_pool=pool)
        self._script = self._redis.register_script(_SCRIPT)
        self._prefix = prefix

    async def _run(self, op: str, channel: str, socket_id: str, user_id: str = "", info: str = "") -> Change:
        base = f"{self._prefix}:{channel}"
        now = time.time()
        keys = [f"{base}:sockets", f"{base}:deadlines", f"{base}:members", f"{base}:counts"]
        args = [op, now, socket_id, user_id, info, now + entry_ttl_seconds(), KEY_TTL_SECONDS]
        added, gone, flat = await self._script(keys=keys, args=args)
        members = {flat[i].decode(): json.loads(flat[i + 1]) for i in range(0, len(flat), 2)}
        return Change(added=bool(added), gone=[uid.decode() for uid in gone], members=members)

    async def join(self, channel: str, socket_id: str, user_id: str, user_info) -> Change:
        return await self._run("join", channel, socket_id, user_id, json.dumps(user_info))

    async def leave(self, channel: str, socket_id: str) -> Change:
        return await self._run("leave", channel, socket_id)

    async def touch(self, channel: str, socket_id: str) -> Change:
        return await self._run("touch", channel, socket_id)


class MemoryPresence:
    """One process holds every connection, so nothing can die unannounced: no deadlines."""

    def __init__(self):
        self._sockets: dict[str, dict[str, str]] = {}  # channel -> socket -> user
        self._members: dict[str, dict[str, object]] = {}  # channel -> user -> info

    async def join(self, channel: str, socket_id: str, user_id: str, user_info) -> Change:
        sockets = self._sockets.setdefault(channel, {})
        members = self._members.setdefault(channel, {})
        added = socket_id not in sockets and user_id not in sockets.values()
        sockets[socket_id] = user_id
        members[user_id] = user_info
        return Change(added=added, members=dict(members))

    async def leave(self, channel: str, socket_id: str) -> Change:
        sockets = self._sockets.get(channel, {})
        user_id = sockets.pop(socket_id, None)
        if user_id is None or user_id in sockets.values():
            return Change()
        self._members.get(channel, {}).pop(user_id, None)
        if not sockets:
            self._sockets.pop(channel, None)
            self._members.pop(channel, None)
        return Change(gone=[user_id])

    async def touch(self, channel: str, socket_id: str) -> Change:
        return Change()


_store: dict[int, object] = {}


def presence_store():
    """This event loop's store (a Redis client belongs to the loop it was made on)."""
    import asyncio

    loop_id = id(asyncio.get_running_loop())
    if loop_id not in _store:
        if settings.REDIS_URL:
            _store[loop_id] = RedisPresence(settings.REDIS_URL, f"{settings.CACHE_KEY_PREFIX}:rt:presence")
        else:
            _store.clear()  # embedded mode: one loop per process
            _store[loop_id] = MemoryPresence()
    return _store[loop_id]
