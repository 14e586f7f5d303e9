"""The shared channel state in Redis, with one lease per web process.

Keys, under `{CACHE_KEY_PREFIX}:rt`:
  procs                   zset  process id -> lease deadline (unix time)
  proc:{pid}:subs         hash  channel -> this process's connections subscribed to it (any kind)
  proc:{pid}:presence     set   "{socket} {channel}" for each of its presence subscriptions
  ch:{channel}:sockets    hash  socket -> user id (as JSON text: "2" is the number, "\"2\"" the string)
  ch:{channel}:members    hash  user id -> user_info (JSON)
  ch:{channel}:counts     hash  user id -> connections of that user
  connections             hash  process id -> its open WebSocket connections (the app-wide limit)
  leaving                 zset  "{channel} {user}" -> grace deadline: a member with no connection left

Each process renews its lease every heartbeat_seconds(). Every process also sweeps: a process
whose lease has run out (it was SIGKILLed, or its host vanished) is reaped in one script that
drops its entries and returns the users whose last connection they were; the reaper sends their
`member_removed`. The readers (the HTTP API) sweep first too, so they never count a dead process.
Channel names hold no spaces (protocol.CHANNEL_NAME_RE), so "{socket} {channel}" splits safely.
The reap script touches keys it builds itself: fine on a single Redis, not on Redis Cluster.
"""

import asyncio
import json
import logging
import time
import uuid
from collections import Counter
from typing import TYPE_CHECKING, cast

from apps.realtime import protocol
from apps.realtime.broadcast import send
from apps.realtime.fanout import fanout_message
from apps.realtime.presence_shared import Change, grace_seconds, heartbeat_seconds, lease_seconds
from apps.realtime.protocol import MemberId

if TYPE_CHECKING:
    from redis.typing import EncodableT

logger = logging.getLogger(__name__)

CLOSE_SECONDS = 5.0


def _uid_key(user_id: MemberId) -> str:
    """A member id in Redis: its JSON text, so it comes back with the type it was signed with."""
    return json.dumps(user_id)


def _uid(raw: bytes | str) -> MemberId:
    """A member id read back. An entry written before ids were kept as JSON is its plain string."""
    text = raw.decode() if isinstance(raw, bytes) else raw
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if protocol.valid_member_id(value) else text


# KEYS: sockets, members, counts, proc subs, proc presence (as in _channel_keys), leaving.
# A user whose last connection leaves with a grace deadline stays in `members` and is noted in
# `leaving` ("{channel} {user}" -> deadline); without one (a reaped process) it goes at once.
_DROP = """
local function drop(k_sockets, k_members, k_counts, k_subs, k_presence, sid, channel, k_leaving, deadline)
  local uid = redis.call('HGET', k_sockets, sid)
  if not uid then return false end
  redis.call('HDEL', k_sockets, sid)
  redis.call('SREM', k_presence, sid .. ' ' .. channel)
  if redis.call('HINCRBY', k_subs, channel, -1) <= 0 then redis.call('HDEL', k_subs, channel) end
  if redis.call('HINCRBY', k_counts, uid, -1) <= 0 then
    redis.call('HDEL', k_counts, uid)
    if deadline then
      redis.call('ZADD', k_leaving, deadline, channel .. ' ' .. uid)
      return false
    end
    redis.call('HDEL', k_members, uid)
    return uid
  end
  return false
end
"""

# ARGV: socket, user, info, channel, quiet ("1": the member list is not read, O(1)).
# Returns {added, members as a flat list (a quiet member: only itself)}.
_JOIN = """
local added = 0
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('SADD', KEYS[5], ARGV[1] .. ' ' .. ARGV[4])
  redis.call('HINCRBY', KEYS[4], ARGV[4], 1)
  if redis.call('HINCRBY', KEYS[3], ARGV[2], 1) == 1 then
    -- back within its grace: it was never gone
    if redis.call('ZREM', KEYS[6], ARGV[4] .. ' ' .. ARGV[2]) == 0 then added = 1 end
  end
end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
if ARGV[5] == '1' then return {added, {ARGV[2], ARGV[3]}} end
return {added, redis.call('HGETALL', KEYS[2])}
"""

# ARGV: socket, channel, grace deadline ("": none). Returns the user gone at once, or nothing.
_LEAVE = (
    _DROP
    + """
local deadline = false
if ARGV[3] ~= '' then deadline = ARGV[3] end
local uid = drop(KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], ARGV[1], ARGV[2], KEYS[6], deadline)
if uid then return {uid} end
return {}
"""
)

# KEYS: procs. ARGV: pid, now, key prefix. Returns {channel, user, channel, user, ...} gone.
_REAP = (
    _DROP
    + """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if (not score) or tonumber(score) > tonumber(ARGV[2]) then return {} end
redis.call('ZREM', KEYS[1], ARGV[1])
local proc = ARGV[3] .. ':proc:' .. ARGV[1]
local gone = {}
for _, entry in ipairs(redis.call('SMEMBERS', proc .. ':presence')) do
  local space = string.find(entry, ' ', 1, true)
  local sid, channel = string.sub(entry, 1, space - 1), string.sub(entry, space + 1)
  local ch = ARGV[3] .. ':ch:' .. channel
  local uid = drop(ch .. ':sockets', ch .. ':members', ch .. ':counts',
                   proc .. ':subs', proc .. ':presence', sid, channel, false, false)
  if uid then
    table.insert(gone, channel)
    table.insert(gone, uid)
  end
end
redis.call('DEL', proc .. ':presence', proc .. ':subs')
return gone
"""
)

# KEYS: procs. ARGV: pid, deadline. Returns 1 when the lease was still there (not reaped).
_BEAT = """
local known = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
if known then return 1 end
return 0
"""

# KEYS: leaving, members, counts. ARGV: "{channel} {user}", user, now. 1: the grace ran out and
# the user did not come back (it is gone now; the caller announces it), 0: nothing to do.
_VACATE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if (not score) or tonumber(score) > tonumber(ARGV[3]) then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1])
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 1 then return 0 end
redis.call('HDEL', KEYS[2], ARGV[2])
return 1
"""

# KEYS: proc subs. ARGV: channel.
_UNSUBSCRIBE = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
"""


class RedisPresence:
    def __init__(self, url: str, prefix: str) -> None:
        import redis.asyncio

        # A blocking pool: a burst of joins waits for a connection instead of failing.
        pool = redis.asyncio.BlockingConnectionPool.from_url(url, max_connections=50, timeout=10)
        self._redis = redis.asyncio.Redis(connection_pool=pool)
        self._join, self._leave = self._redis.register_script(_JOIN), self._redis.register_script(_LEAVE)
        self._reap, self._beat = self._redis.register_script(_REAP), self._redis.register_script(_BEAT)
        self._unsubscribe = self._redis.register_script(_UNSUBSCRIBE)
        self._vacate = self._redis.register_script(_VACATE)
        self._leaving = f"{prefix}:leaving"
        self._connections = f"{prefix}:connections"  # process id -> its open WebSocket connections
        self._vacating: asyncio.Task[None] | None = None
        self._prefix = prefix
        self.process_id = uuid.uuid4().hex
        self._procs = f"{prefix}:procs"
        self._subs = f"{prefix}:proc:{self.process_id}:subs"
        self._presence = f"{prefix}:proc:{self.process_id}:presence"
        # What this process holds, to write it again if its lease was ever reaped while it lived
        # (its loop stalled longer than the lease).
        self._local_subscriptions: Counter[str] = Counter()
        self._local_presence: dict[tuple[str, str], tuple[MemberId, str]] = {}  # (channel, socket) -> (user, info)
        self._registered: asyncio.Task[bool] | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._lease_until = 0.0  # when the lease this process last wrote runs out

    def _channel_keys(self, channel: str) -> list[str]:
        base = f"{self._prefix}:ch:{channel}"
        return [f"{base}:sockets", f"{base}:members", f"{base}:counts", self._subs, self._presence, self._leaving]

    # ------------------------------------------------------------------ writes (the consumer)

    async def _ensure_registered(self) -> None:
        """The lease exists before the first entry that hangs off it (an entry written without
        one could never be reaped), and the heartbeat runs from then on."""
        if self._registered is None or (self._registered.done() and self._registered.exception() is not None):
            self._registered = asyncio.ensure_future(self._renew())
        await asyncio.shield(self._registered)
        if self._heartbeat is None:
            self._heartbeat = asyncio.get_running_loop().create_task(self._keep_lease())
            self._vacating = asyncio.get_running_loop().create_task(self._vacate_when_due())

    async def _renew(self) -> bool:
        deadline = time.time() + lease_seconds()
        renewed = bool(await self._beat(keys=[self._procs], args=[self.process_id, deadline]))
        self._lease_until = deadline
        return renewed

    async def _renew_if_due(self) -> None:
        """Before a sweep: a living process never reaps itself. When its loop stalled past the
        heartbeat (a busy process), the lease it holds may have run out; renew it first (and write
        the entries again if another process reaped them meanwhile)."""
        due = self._heartbeat is not None and time.time() >= self._lease_until - heartbeat_seconds()
        if due and not await self._renew():
            await self._write_again()

    async def subscribe(self, channel: str) -> None:
        """Counted for the HTTP API only: a failure is logged and the subscription stands (the
        next lease renewal after a reap rewrites the counts from _local_subscriptions)."""
        self._local_subscriptions[channel] += 1
        try:
            await self._ensure_registered()
            await self._redis.hincrby(self._subs, channel, 1)
        except Exception:
            logger.warning("could not count a subscription to %s", channel, exc_info=True)

    async def unsubscribe(self, channel: str) -> None:
        self._local_subscriptions[channel] -= 1
        if self._local_subscriptions[channel] <= 0:
            del self._local_subscriptions[channel]
        try:
            await self._unsubscribe(keys=[self._subs], args=[channel])
        except Exception:
            logger.warning("could not count an unsubscription from %s", channel, exc_info=True)

    async def join(
        self, channel: str, socket_id: str, user_id: MemberId, user_info: object, *, quiet: bool = False
    ) -> Change:
        await self._ensure_registered()
        info = json.dumps(user_info)
        if (channel, socket_id) not in self._local_presence:
            self._local_subscriptions[channel] += 1
        self._local_presence[(channel, socket_id)] = (user_id, info)
        args = [socket_id, _uid_key(user_id), info, channel, "1" if quiet else "0"]
        added, flat = await self._join(keys=self._channel_keys(channel), args=args)
        members = {_uid(flat[i]): json.loads(flat[i + 1]) for i in range(0, len(flat), 2)}
        return Change(added=bool(added), members=members)

    async def leave(self, channel: str, socket_id: str) -> Change:
        if self._local_presence.pop((channel, socket_id), None) is not None:
            self._local_subscriptions[channel] -= 1
            if self._local_subscriptions[channel] <= 0:
                del self._local_subscriptions[channel]
        grace = grace_seconds()
        deadline = repr(time.time() + grace) if grace > 0 else ""
        gone = await self._leave(keys=self._channel_keys(channel), args=[socket_id, channel, deadline])
        return Change(gone=[_uid(uid) for uid in gone])

    async def census(self, here: int) -> int:
        """Write this process's open connections (`here`) and read the other live processes'
        (for the app-wide connection limit). One pipeline per fan-out check."""
        await self._ensure_registered()
        now = time.time()
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.hset(self._connections, self.process_id, here)
            pipe.zrangebyscore(self._procs, f"({now}", "+inf")
            pipe.hgetall(self._connections)
            _, live, counts = await pipe.execute()
        live_ids = {pid.decode() for pid in live} - {self.process_id}
        stale = [pid for pid in counts if pid.decode() not in live_ids and pid.decode() != self.process_id]
        if stale:
            await self._redis.hdel(self._connections, *stale)
        return sum(int(count) for pid, count in counts.items() if pid.decode() in live_ids)

    async def close(self) -> None:
        """Stop renewing the lease and close the Redis connections (the entries stay until this
        process's leave calls or the lease runs out). Bounded: a shutdown never waits on Redis
        longer than CLOSE_SECONDS."""
        tasks = [task for task in (self._heartbeat, self._vacating) if task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            _, still_running = await asyncio.wait(tasks, timeout=CLOSE_SECONDS)
            if still_running:
                logger.warning("the real-time lease tasks did not stop within %s s of their cancel", CLOSE_SECONDS)
        try:
            async with asyncio.timeout(CLOSE_SECONDS):
                await self._redis.aclose(close_connection_pool=True)
        except TimeoutError:
            logger.warning("closing the presence store's Redis connections took over %s s; left", CLOSE_SECONDS)

    # ------------------------------------------------------------------ the lease

    async def _keep_lease(self) -> None:
        while True:
            await asyncio.sleep(heartbeat_seconds())
            try:
                if not await self._renew():
                    await self._write_again()
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("could not renew this process's real-time lease; retrying")

    async def _write_again(self) -> None:
        """Our lease had run out and another process reaped our entries (and told the clients
        these members left): write them again, announcing the members that come back."""
        logger.warning("this process's real-time lease was reaped while it lived; writing its entries again")
        for (channel, socket_id), (user_id, info) in list(self._local_presence.items()):
            args = [socket_id, _uid_key(user_id), info, channel, "1"]
            added, _ = await self._join(keys=self._channel_keys(channel), args=args)
            if added:
                data = {"user_id": user_id, "user_info": json.loads(info)}
                await send(fanout_message([channel], protocol.MEMBER_ADDED, data))
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.delete(self._subs)
            if self._local_subscriptions:
                counts: dict[EncodableT, EncodableT] = {channel: n for channel, n in self._local_subscriptions.items()}
                pipe.hset(self._subs, mapping=counts)
            await pipe.execute()

    async def _vacate_when_due(self) -> None:
        while True:
            await asyncio.sleep(min(1.0, max(0.1, grace_seconds() / 4)))
            try:
                await self.vacate_due()
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.warning("could not check the presence members in their grace; retrying", exc_info=True)

    async def vacate_due(self) -> None:
        """Members whose grace ran out without a new connection: gone now, announced once (the
        script lets one process win each)."""
        now = time.time()
        for entry in await self._by_score(self._leaving, "-inf", now, start=0, num=500):
            channel, _, user_key = entry.decode().partition(" ")  # channel names hold no spaces
            base = f"{self._prefix}:ch:{channel}"
            keys = [self._leaving, f"{base}:members", f"{base}:counts"]
            if await self._vacate(keys=keys, args=[entry, user_key, now]):
                await send(fanout_message([channel], protocol.MEMBER_REMOVED, {"user_id": _uid(user_key)}))

    async def sweep(self) -> None:
        """Reap every other process whose lease has run out and send its members' `member_removed`."""
        await self._renew_if_due()
        await self.vacate_due()
        now = time.time()
        for pid in await self._by_score(self._procs, "-inf", now):
            if pid.decode() == self.process_id:
                continue
            flat = await self._reap(keys=[self._procs], args=[pid, now, self._prefix])
            for i in range(0, len(flat), 2):
                channel, user_id = flat[i].decode(), _uid(flat[i + 1])
                await send(fanout_message([channel], protocol.MEMBER_REMOVED, {"user_id": user_id}))

    # ------------------------------------------------------------------ reads (the HTTP API)

    async def _live_processes(self) -> list[bytes]:
        await self.sweep()
        return await self._by_score(self._procs, f"({time.time()}", "+inf")

    async def _by_score(
        self, key: str, low: str | float, high: str | float, start: int | None = None, num: int | None = None
    ) -> list[bytes]:
        # redis-py types a reply as any shape its options could give; this client does not decode
        # responses and asks for no scores, so a sorted-set range is a list of bytes.
        return cast(list[bytes], await self._redis.zrangebyscore(key, low, high, start=start, num=num))

    async def subscription_counts(self, prefix: str = "") -> dict[str, int]:
        """Channel -> connections subscribed, summed over the live processes."""
        processes = await self._live_processes()
        async with self._redis.pipeline(transaction=False) as pipe:
            for pid in processes:
                pipe.hgetall(f"{self._prefix}:proc:{pid.decode()}:subs")
            per_process = await pipe.execute()
        totals: Counter[str] = Counter()
        for counts in per_process:
            for channel, count in counts.items():
                name = channel.decode()
                if name.startswith(prefix) and int(count) > 0:
                    totals[name] += int(count)
        return dict(totals)

    async def subscription_count(self, channel: str) -> int:
        processes = await self._live_processes()
        async with self._redis.pipeline(transaction=False) as pipe:
            for pid in processes:
                pipe.hget(f"{self._prefix}:proc:{pid.decode()}:subs", channel)
            counts = await pipe.execute()
        return sum(max(0, int(count)) for count in counts if count is not None)

    async def user_ids(self, channel: str) -> list[MemberId]:
        await self.sweep()
        # `members`, not `counts`: a member in its grace has no connection but is still listed.
        return [_uid(uid) for uid in await self._redis.hkeys(f"{self._prefix}:ch:{channel}:members")]

    async def user_counts(self, channels: list[str]) -> dict[str, int]:
        await self.sweep()
        async with self._redis.pipeline(transaction=False) as pipe:
            for channel in channels:
                pipe.hlen(f"{self._prefix}:ch:{channel}:members")
            counts = await pipe.execute()
        return dict(zip(channels, counts, strict=True))
