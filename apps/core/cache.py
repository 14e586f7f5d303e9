"""The Redis cache, made to fail open: while Redis is unreachable, reads miss and writes are
dropped (logged once per outage), so the REST surfaces keep answering. What the cache holds here
is all best-effort: throttle buckets (they fail open), heartbeat write coalescing (heartbeats are
then written every time), and the session cache (sessions are read from the database)."""

import functools
import logging

from django.core.cache.backends.redis import RedisCache
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


class FailOpenRedisCache(RedisCache):
    _outage = False

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
