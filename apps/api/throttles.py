"""Rate limits per surface. Buckets live in the cache (Redis in production), so every web
process shares them."""

from rest_framework.throttling import SimpleRateThrottle

from apps.core.cache import increment


class AtomicWindowThrottle(SimpleRateThrottle):
    """A fixed window counted with the cache's atomic increment (Redis INCR). DRF's own
    history list is read, appended and written back, so concurrent requests (several threads or
    web processes) overwrite each other's counts and a limit shared across processes is not
    enforced at all under load; an increment cannot lose a request."""

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        window = int(self.now // self.duration)
        self.window_ends_at = (window + 1) * self.duration
        count = increment(f"{self.key}:{window}", int(self.duration) + 1)
        if count is None:
            return True  # the cache keeps losing the key: fail open, as on a cache outage
        return count <= self.num_requests or self.throttle_failure()

    def wait(self) -> float:
        return max(1.0, self.window_ends_at - self.now)


class KioskThrottle(AtomicWindowThrottle):
    scope = "kiosk"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": f"kiosk-{request.auth.pk}"}


class PairingThrottle(AtomicWindowThrottle):
    """Pairing is unauthenticated: limit attempts per client IP so 6 digits cannot be guessed."""

    scope = "pairing"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AgentThrottle(AtomicWindowThrottle):
    scope = "agent"

    def get_cache_key(self, request, view):
        if request.user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}


class TokenApiThrottle(AtomicWindowThrottle):
    """120 requests a minute per user: every token of one user shares the bucket (spec 8)."""

    scope = "token_api"

    def get_cache_key(self, request, view):
        if request.user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}
