"""The Redis cache, made to fail open: while Redis is unreachable, reads miss and writes are
dropped (logged once per outage), so the REST surfaces keep answering. What the cache holds is
mostly best-effort: usage throttle buckets (they fail open), heartbeat write coalescing
(heartbeats are then written every time), and the session cache (sessions are read from the
database).

Brute-force guards are the exception (`security_counters`): sign-in and 2FA failure counters
and the pairing and token-endpoint throttles must not turn into "no limit" while Redis is away,
so they count in this process's own memory until Redis answers again."""

import functools
import logging

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)
_UNREACHABLE = (RedisConnectionError, RedisTimeoutError, OSError)


def _fail_open(fallback):
    """Answer `fallback(*args, **kwargs)` instead of raising while Redis is unreachable."""

    def decorate(method):
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            try:
                result = method(self, *args, **kwargs)
            except _UNREACHABLE as exc:
                self.note_outage(exc)
                return fallback(*args, **kwargs)
            self._outage = False
            return result

        wrapper.strict = method  # the same call, raising while Redis is unreachable
        return wrapper

    return decorate


def _default(key, default=None, *args, **kwargs):
    return default


def increment(key: str, timeout: int, *, security: bool = False) -> int | None:
    """Add one to the counter `key`, which expires `timeout` seconds after its first count, and
    return the new count: one round trip on Redis, add-then-incr on the embedded local-memory
    cache. None when the cache keeps losing the key (callers treat it like an outage).
    `security`: a brute-force guard, counted in process memory while Redis is unreachable
    (`security_counters`) instead of failing open."""
    if security:
        return security_counters.increment(key, timeout)
    from django.core.cache import cache

    count_in_window = getattr(cache, "count_in_window", None)
    if count_in_window is not None:
        return count_in_window(key, timeout)
    return _add_then_incr(cache, key, timeout)


def _add_then_incr(cache, key: str, timeout: int) -> int | None:
    for _ in range(2):  # the key may expire between add and incr: start it again once
        cache.add(key, 0, timeout=timeout)
        try:
            return cache.incr(key)
        except ValueError:
            continue
    return None


def get_many_and_increment(keys: list[str], counter: str, timeout: int) -> tuple[dict, int | None]:
    """`cache.get_many(keys)` and `increment(counter, timeout)`, in one round trip on Redis."""
    from django.core.cache import cache

    combined = getattr(cache, "get_many_and_count", None)
    if combined is not None:
        return combined(keys, counter, timeout)
    return cache.get_many(keys), increment(counter, timeout)


_shared_clients: dict[str, object] = {}  # server URL -> redis-py client, for the whole process


class ReusedClientRedisCacheClient(RedisCacheClient):
    """One redis-py client (and so one connection pool) per server for the whole process.

    Django keeps a cache object per thread, and daphne runs each request on a thread of its own,
    so Django's own client would open a new pool, a new TCP connection and redis-py 8's handshake
    (which reads package metadata from disk) on every request; it also builds a client object,
    with some 170 response callbacks, for every command. Clients are thread-safe: the pool hands
    each command a socket."""

    def get_client(self, key=None, *, write=False):
        server = self._servers[self._get_connection_pool_index(write)]
        client = _shared_clients.get(server)
        if client is None:
            client = _shared_clients.setdefault(server, self._client(connection_pool=self._get_connection_pool(write)))
        return client


class FailOpenRedisCache(RedisCache):
    _outage = False

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

    def note_outage(self, exc: Exception) -> None:
        if not self._outage:
            logger.warning("Redis cache unreachable (%s); serving without it", exc.__class__.__name__)
        self._outage = True

    get = _fail_open(_default)(RedisCache.get)
    get_many = _fail_open(lambda *a, **k: {})(RedisCache.get_many)
    has_key = _fail_open(lambda *a, **k: False)(RedisCache.has_key)
    add = _fail_open(lambda *a, **k: True)(RedisCache.add)  # as if the key was new
    set = _fail_open(lambda *a, **k: None)(RedisCache.set)
    set_many = _fail_open(lambda *a, **k: [])(RedisCache.set_many)
    touch = _fail_open(lambda *a, **k: False)(RedisCache.touch)
    delete = _fail_open(lambda *a, **k: False)(RedisCache.delete)
    delete_many = _fail_open(lambda *a, **k: None)(RedisCache.delete_many)
    incr = _fail_open(lambda key, delta=1, *a, **k: delta)(RedisCache.incr)

    @_fail_open(lambda *a, **k: 1)
    def count_in_window(self, key: str, timeout: int) -> int:
        """Add one to a counter that expires `timeout` seconds after its first count, in one
        round trip (INCR and EXPIRE NX pipelined); the rate limiters count requests with it."""
        key = self.make_and_validate_key(key)
        pipe = self._cache.get_client(key, write=True).pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, timeout, nx=True)
        count, _ = pipe.execute()
        return count

    @_fail_open(lambda *a, **k: ({}, 1))
    def get_many_and_count(self, keys: list[str], counter: str, timeout: int) -> tuple[dict, int]:
        """get_many and count_in_window pipelined: the kiosk surface reads its cached
        credentials and counts the request's rate window in one round trip."""
        key_map = {self.make_and_validate_key(key): key for key in keys}
        counter = self.make_and_validate_key(counter)
        pipe = self._cache.get_client(counter, write=True).pipeline(transaction=False)
        pipe.mget(list(key_map))
        pipe.incr(counter)
        pipe.expire(counter, timeout, nx=True)
        values, count, _ = pipe.execute()
        loads = self._cache._serializer.loads
        return {
            key_map[key]: loads(value) for key, value in zip(key_map, values, strict=True) if value is not None
        }, count


class SecurityCounters:
    """The cache calls of the brute-force guards. They go to the shared cache (Redis, so every web
    process counts together); while Redis is unreachable they go to `fallback`, a local-memory
    cache of this process, instead of failing open. Each process then enforces the limits on its
    own: with N web processes an attacker gets at most N times a limit, not an unlimited number
    of guesses. Once Redis answers again the counts made in memory are no longer read (they
    expire with their windows). The embedded mode's cache is process memory already."""

    def __init__(self):
        self.fallback = LocMemCache("security-counters", {"OPTIONS": {"MAX_ENTRIES": 100_000}})

    def _run(self, name: str, args: tuple, in_memory):
        """`name` on Redis (its raising variant), or `in_memory(cache)` on process memory."""
        shared = caches["default"]
        if not isinstance(shared, FailOpenRedisCache):  # process memory already: never unreachable
            return in_memory(shared)
        try:
            result = getattr(FailOpenRedisCache, name).strict(shared, *args)
        except _UNREACHABLE as exc:
            shared.note_outage(exc)
            return in_memory(self.fallback)
        shared._outage = False
        return result

    def get_many(self, keys: list[str]) -> dict:
        return self._run("get_many", (keys,), lambda cache: cache.get_many(keys))

    def add(self, key: str, value, timeout: int) -> bool:
        return self._run("add", (key, value, timeout), lambda cache: cache.add(key, value, timeout))

    def delete_many(self, keys: list[str]) -> None:
        self._run("delete_many", (keys,), lambda cache: cache.delete_many(keys))

    def increment(self, key: str, timeout: int) -> int | None:
        """Like `increment`: one atomic count on Redis, add-then-incr in memory."""
        return self._run("count_in_window", (key, timeout), lambda cache: _add_then_incr(cache, key, timeout))


security_counters = SecurityCounters()
