"""The Redis cache, made to fail open: while Redis is unreachable, reads miss and writes are
dropped (logged once per outage), so the REST surfaces keep answering. What the cache holds is
mostly best-effort: usage throttle buckets (they fail open), heartbeat write coalescing
(heartbeats are then written every time), and the session cache (sessions are read from the
database).

Brute-force guards are the exception (`security_counters`): sign-in and 2FA failure counters
and the pairing and token-endpoint throttles must not turn into "no limit" while Redis is away,
so they count in this process's own memory until Redis answers again.

`FailOpenRedisCache` is a Django cache backend (Django's documented `BaseCache` extension point)
on one redis-py client per server for the whole process (`shared_client`). Django keeps a cache
object per thread and daphne runs each request on a thread of its own, so Django's own Redis
backend would open a new pool, TCP connection and redis-py handshake per request. The backend
adds two round trips of its own (`count_in_window`, `get_many_and_count`) and a raising
variant of the calls the brute-force guards make; callers reach them through the functions
below, which pick the local-memory path of the embedded default explicitly."""

import asyncio
import json
import logging
import threading
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

import redis
import redis.asyncio
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.locmem import LocMemCache

logger = logging.getLogger(__name__)
T = TypeVar("T")
Key = Any  # Django's cache API takes any key its key function accepts
Timeout = float | None  # seconds; DEFAULT_TIMEOUT (an object) means the cache's default
_UNREACHABLE = (redis.ConnectionError, redis.TimeoutError, OSError)

_clients: dict[str, redis.Redis] = {}  # server URL -> redis-py client, for the whole process
_clients_lock = threading.Lock()


def shared_client(url: str, options: dict[str, Any]) -> redis.Redis:
    """The process's redis-py client for `url` (thread-safe: its pool hands each command a socket)."""
    client = _clients.get(url)
    if client is None:
        with _clients_lock:
            client = _clients.setdefault(url, redis.Redis.from_url(url, **options))
    return client


# The asyncio clients (the kiosk hot path's): a client belongs to the event loop it was made on.
_async_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[str, redis.asyncio.Redis]] = (
    weakref.WeakKeyDictionary()
)  # loop -> {server URL: client}


def shared_async_client(url: str, options: dict[str, Any]) -> redis.asyncio.Redis:
    """The running event loop's redis-py asyncio client for `url` (one per loop: daphne has one).
    Only that loop's thread uses it, so no lock."""
    per_loop = _async_clients.setdefault(asyncio.get_running_loop(), {})
    client = per_loop.get(url)
    if client is None:
        client = per_loop[url] = redis.asyncio.Redis.from_url(url, **options)
    return client


class _Outage:
    """Whether the process last found Redis unreachable: an outage is logged once."""

    def __init__(self) -> None:
        self.ongoing = False

    def note(self, exc: Exception) -> None:
        if not self.ongoing:
            logger.warning("Redis cache unreachable (%s); serving without it", exc.__class__.__name__)
        self.ongoing = True


outage = _Outage()


# A kiosk request's one round trip (`get_many_and_count`): count the rate window (INCR; EXPIRE NX
# starts the window at the first count), set the optional stamp, read the keys. KEYS: the counter,
# the stamp's key when ARGV[2] is not empty, then the keys read; ARGV: the window's seconds, the
# stamp's value and seconds. Returns the count, then the values in the order of the keys read.
# One script rather than a pipeline of four commands: redis-py's cost is per command (packing,
# parsing), and every kiosk poll makes this round trip (docs/scaling.md).
GET_MANY_AND_COUNT = """
local count = redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], ARGV[1], 'NX')
local first = 2
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
  first = 3
end
local found = {count}
if #KEYS >= first then
  for i, value in ipairs(redis.call('MGET', unpack(KEYS, first))) do found[i + 1] = value end
end
return found
"""

_async_scripts: weakref.WeakKeyDictionary[redis.asyncio.Redis, dict[str, Any]] = weakref.WeakKeyDictionary()


def _async_script(client: redis.asyncio.Redis, source: str) -> Any:
    """`client.register_script(source)`, made once per client (redis-py loads it into the server
    on first use, and again after a Redis restart forgets it)."""
    scripts = _async_scripts.setdefault(client, {})
    script = scripts.get(source)
    if script is None:
        script = scripts[source] = client.register_script(source)
    return script


# Values are stored as JSON, never pickled: what a cached value means must not depend on the
# classes of the process that wrote it (a deploy that changes a model would otherwise break the
# reads of entries written before it, or run code on unpickling). Integers stay plain so INCR
# works on them. A value that is not plain data (a model instance, a set) raises TypeError at
# `set`: callers cache plain data, with a version in the key where its shape may change
# (kiosks.selectors). An entry that does not decode (an old pickle) is a miss.
_UNDECODABLE = object()


def _dumps(value: object) -> bytes | int:
    if type(value) is int:
        return value
    return json.dumps(value, separators=(",", ":"), allow_nan=False).encode()


def _loads(data: bytes | str) -> Any:
    try:
        return int(data)
    except ValueError:
        pass
    try:
        return json.loads(data)
    except ValueError:  # also UnicodeDecodeError
        return _UNDECODABLE


class FailOpenRedisCache(BaseCache):
    def __init__(self, server: str, params: dict[str, Any]):
        super().__init__(params)
        self.server, self.options = server, params.get("OPTIONS", {})
        self.client = shared_client(server, self.options)
        self._get_many_and_count_script = self.client.register_script(GET_MANY_AND_COUNT)

    def _fail_open(self, command: Callable[[], T], fallback: T) -> T:
        """`command()`, or `fallback` while Redis is unreachable."""
        try:
            result = command()
        except _UNREACHABLE as exc:
            outage.note(exc)
            return fallback
        outage.ongoing = False
        return result

    def _ttl(self, timeout: Timeout) -> int | None:
        if timeout is DEFAULT_TIMEOUT:
            timeout = self.default_timeout
        return None if timeout is None else max(0, int(timeout))

    # ---- raising commands (the brute-force guards use these: security_counters)

    def get_many_or_raise(self, keys: Iterable[Key], version: int | None = None) -> dict[Any, Any]:
        names = {self.make_and_validate_key(key, version=version): key for key in keys}
        values = self.client.mget(list(names)) if names else []
        return self._found(names, values)

    def add_or_raise(
        self, key: Key, value: Any, timeout: Timeout = DEFAULT_TIMEOUT, version: int | None = None
    ) -> bool:
        name, ttl = self.make_and_validate_key(key, version=version), self._ttl(timeout)
        if ttl == 0:
            added = bool(self.client.set(name, _dumps(value), nx=True))
            if added:
                self.client.delete(name)
            return added
        return bool(self.client.set(name, _dumps(value), ex=ttl, nx=True))

    def delete_many_or_raise(self, keys: Iterable[Key], version: int | None = None) -> None:
        if keys:
            self.client.delete(*(self.make_and_validate_key(key, version=version) for key in keys))

    def count_in_window_or_raise(self, key: str, timeout: int) -> int:
        """Add one to a counter that expires `timeout` seconds after its first count, in one
        round trip (INCR and EXPIRE NX pipelined); the rate limiters count requests with it."""
        name = self.make_and_validate_key(key)
        pipe = self.client.pipeline(transaction=False)
        pipe.incr(name)
        pipe.expire(name, timeout, nx=True)
        count, _ = pipe.execute()
        return int(count)

    # ---- the pipelined commands, failing open

    def count_in_window(self, key: str, timeout: int) -> int:
        return self._fail_open(lambda: self.count_in_window_or_raise(key, timeout), 1)

    def get_many_and_count(
        self, keys: list[str], counter: str, timeout: int, stamp: "Stamp | None" = None
    ) -> tuple[dict[str, Any], int]:
        """get_many and count_in_window in one round trip (and `stamp` set): the kiosk surface
        reads its cached credentials, counts the request's rate window and notes it was heard."""
        names, script_keys, args = self._get_many_and_count_call(keys, counter, timeout, stamp)
        nothing: dict[str, Any] = {}
        found = self._fail_open(lambda: self._get_many_and_count_script(script_keys, args), None)
        return (nothing, 1) if found is None else self._counted(names, found)

    async def aget_many_and_count(
        self, keys: list[str], counter: str, timeout: int, stamp: "Stamp | None" = None
    ) -> tuple[dict[str, Any], int]:
        """`get_many_and_count` on this event loop's asyncio client (the kiosk hot path, which
        answers steady requests on the event loop without a thread)."""
        names, script_keys, args = self._get_many_and_count_call(keys, counter, timeout, stamp)
        client = shared_async_client(self.server, self.options)
        try:
            found = await _async_script(client, GET_MANY_AND_COUNT)(script_keys, args)
        except _UNREACHABLE as exc:
            outage.note(exc)
            return {}, 1
        outage.ongoing = False
        return self._counted(names, found)

    def _get_many_and_count_call(
        self, keys: list[str], counter: str, timeout: int, stamp: "Stamp | None"
    ) -> tuple[dict[str, str], list[str], list[Any]]:
        """The keys by their Redis names, and GET_MANY_AND_COUNT's KEYS and ARGV (one definition
        for the sync and asyncio clients). Keys are not validated for memcached (Django's warnings
        cost the hot path ~15 us): they are ours."""
        names = {self.make_key(key): key for key in keys}
        if stamp is None:
            return names, [self.make_key(counter), *names], [timeout, ""]
        stamp_name = self.make_key(stamp.key)
        return names, [self.make_key(counter), stamp_name, *names], [timeout, _dumps(stamp.value), stamp.timeout]

    def _counted(self, names: dict[str, Any], found: list[Any]) -> tuple[dict[str, Any], int]:
        count, *values = found
        return self._found(names, values), int(count)

    @staticmethod
    def _found(names: dict[str, Any], values: list[Any]) -> dict[Any, Any]:
        loaded = ((names[name], _loads(value)) for name, value in zip(names, values, strict=True) if value is not None)
        return {key: value for key, value in loaded if value is not _UNDECODABLE}

    # ---- Django's cache API, failing open

    def get(self, key: Key, default: Any | None = None, version: int | None = None) -> Any:
        def command() -> Any:
            data = self.client.get(self.make_and_validate_key(key, version=version))
            value = _UNDECODABLE if data is None else _loads(data)
            return default if value is _UNDECODABLE else value

        return self._fail_open(command, default)

    def get_many(self, keys: Iterable[Key], version: int | None = None) -> dict[Any, Any]:
        return self._fail_open(lambda: self.get_many_or_raise(keys, version), {})

    def has_key(self, key: Key, version: int | None = None) -> bool:
        name = self.make_and_validate_key(key, version=version)
        return self._fail_open(lambda: bool(self.client.exists(name)), False)

    def add(self, key: Key, value: Any, timeout: Timeout = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._fail_open(lambda: self.add_or_raise(key, value, timeout, version), True)  # as if new

    def set(self, key: Key, value: Any, timeout: Timeout = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        def command() -> None:
            name, ttl = self.make_and_validate_key(key, version=version), self._ttl(timeout)
            if ttl == 0:
                self.client.delete(name)
            else:
                self.client.set(name, _dumps(value), ex=ttl)

        self._fail_open(command, None)

    def set_many(
        self, data: dict[Any, Any], timeout: Timeout = DEFAULT_TIMEOUT, version: int | None = None
    ) -> list[Any]:
        def command() -> list[Any]:
            ttl = self._ttl(timeout)
            pipe = self.client.pipeline(transaction=False)
            for key, value in data.items():
                name = self.make_and_validate_key(key, version=version)
                if ttl == 0:
                    pipe.delete(name)
                else:
                    pipe.set(name, _dumps(value), ex=ttl)
            pipe.execute()
            return []

        return self._fail_open(command, [])

    def touch(self, key: Key, timeout: Timeout = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        def command() -> bool:
            name, ttl = self.make_and_validate_key(key, version=version), self._ttl(timeout)
            return bool(self.client.persist(name) if ttl is None else self.client.expire(name, ttl))

        return self._fail_open(command, False)

    def delete(self, key: Key, version: int | None = None) -> bool:
        name = self.make_and_validate_key(key, version=version)
        return self._fail_open(lambda: bool(self.client.delete(name)), False)

    def delete_many(self, keys: Iterable[Key], version: int | None = None) -> None:
        self._fail_open(lambda: self.delete_many_or_raise(keys, version), None)

    def incr(self, key: Key, delta: int = 1, version: int | None = None) -> int:
        def command() -> int:
            name = self.make_and_validate_key(key, version=version)
            if not self.client.exists(name):
                raise ValueError(f"Key '{key}' not found.")
            return int(self.client.incr(name, delta))

        return self._fail_open(command, delta)

    def clear(self) -> None:
        """Delete this cache's keys (those under its key prefix; the whole database without one)."""

        def command() -> None:
            if not self.key_prefix:
                self.client.flushdb()
                return
            for name in self.client.scan_iter(f"{self.key_prefix}:*"):
                self.client.delete(name)

        self._fail_open(command, None)


def _shared_redis() -> FailOpenRedisCache | None:
    """The default cache when it is Redis; None on the embedded default (local memory)."""
    shared = caches["default"]
    return shared if isinstance(shared, FailOpenRedisCache) else None


def increment(key: str, timeout: int, *, security: bool = False) -> int | None:
    """Add one to the counter `key`, which expires `timeout` seconds after its first count, and
    return the new count: one round trip on Redis, add-then-incr on the embedded local-memory
    cache. None when the cache keeps losing the key (callers treat it like an outage).
    `security`: a brute-force guard, counted in process memory while Redis is unreachable
    (`security_counters`) instead of failing open."""
    if security:
        return security_counters.increment(key, timeout)
    shared = _shared_redis()
    if shared is not None:
        return shared.count_in_window(key, timeout)
    return _add_then_incr(caches["default"], key, timeout)


def _add_then_incr(cache: BaseCache, key: str, timeout: int) -> int | None:
    for _ in range(2):  # the key may expire between add and incr: start it again once
        cache.add(key, 0, timeout=timeout)
        try:
            return cache.incr(key)
        except ValueError:
            continue
    return None


@dataclass(frozen=True)
class Stamp:
    """A value set along with a read (`get_many_and_increment`), e.g. when a kiosk was last heard."""

    key: str
    value: object
    timeout: int


def get_many_and_increment(
    keys: list[str], counter: str, timeout: int, stamp: Stamp | None = None
) -> tuple[dict[str, Any], int | None]:
    """`cache.get_many(keys)` and `increment(counter, timeout)` (and `cache.set` of `stamp`), in
    one round trip on Redis."""
    shared = _shared_redis()
    if shared is not None:
        return shared.get_many_and_count(keys, counter, timeout, stamp)
    local = caches["default"]
    if stamp is not None:
        local.set(stamp.key, stamp.value, stamp.timeout)
    return local.get_many(keys), increment(counter, timeout)


async def aget_many_and_increment(
    keys: list[str], counter: str, timeout: int, stamp: Stamp | None = None
) -> tuple[dict[str, Any], int | None]:
    """`get_many_and_increment` for async code: Redis through the event loop's asyncio client;
    the embedded default's local memory is called directly (it does no I/O)."""
    shared = _shared_redis()
    if shared is not None:
        return await shared.aget_many_and_count(keys, counter, timeout, stamp)
    return get_many_and_increment(keys, counter, timeout, stamp)


class SecurityCounters:
    """The cache calls of the brute-force guards. They go to the shared cache (Redis, so every web
    process counts together); while Redis is unreachable they go to `fallback`, a local-memory
    cache of this process, instead of failing open. Each process then enforces the limits on its
    own: with N web processes an attacker gets at most N times a limit, not an unlimited number
    of guesses. Once Redis answers again the counts made in memory are no longer read (they
    expire with their windows). The embedded mode's cache is process memory already."""

    def __init__(self) -> None:
        self.fallback = LocMemCache("security-counters", {"OPTIONS": {"MAX_ENTRIES": 100_000}})

    def _run(self, on_redis: Callable[[FailOpenRedisCache], T], in_memory: Callable[[BaseCache], T]) -> T:
        """`on_redis(shared)` (a raising command), or `in_memory(cache)` on process memory."""
        shared = _shared_redis()
        if shared is None:  # process memory already: never unreachable
            return in_memory(caches["default"])
        try:
            result = on_redis(shared)
        except _UNREACHABLE as exc:
            outage.note(exc)
            return in_memory(self.fallback)
        outage.ongoing = False
        return result

    def get_many(self, keys: list[str]) -> dict[str, Any]:
        return self._run(lambda redis_cache: redis_cache.get_many_or_raise(keys), lambda cache: cache.get_many(keys))

    def add(self, key: str, value: object, timeout: int) -> bool:
        return self._run(
            lambda redis_cache: redis_cache.add_or_raise(key, value, timeout),
            lambda cache: cache.add(key, value, timeout),
        )

    def delete_many(self, keys: list[str]) -> None:
        self._run(lambda redis_cache: redis_cache.delete_many_or_raise(keys), lambda cache: cache.delete_many(keys))

    def increment(self, key: str, timeout: int) -> int | None:
        """Like `increment`: one atomic count on Redis, add-then-incr in memory."""
        return self._run(
            lambda redis_cache: redis_cache.count_in_window_or_raise(key, timeout),
            lambda cache: _add_then_incr(cache, key, timeout),
        )


security_counters = SecurityCounters()
