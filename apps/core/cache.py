"""The Redis cache, made to fail open: while Redis is unreachable, reads miss and writes are
dropped (logged once per outage), so the REST surfaces keep answering. What the cache holds here
is all best-effort: throttle buckets (they fail open), heartbeat write coalescing (heartbeats are
then written every time), and the session cache (sessions are read from the database)."""

import functools
import logging

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
                if not self._outage:
                    logger.warning("Redis cache unreachable (%s); serving without it", exc.__class__.__name__)
                self._outage = True
                return fallback(*args, **kwargs)
            self._outage = False
            return result

        return wrapper

    return decorate


def _default(key, default=None, *args, **kwargs):
    return default


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django builds a new redis-py client object for every command, and a redis-py 8 client
    sets up some 170 response callbacks when built: a third of a kiosk poll's Redis time. One
    client per connection pool is enough (clients are thread-safe; the pool hands out sockets)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(connection_pool=self._get_connection_pool(write))
        return client


class FailOpenRedisCache(RedisCache):
    _outage = False

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

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
