"""Rate limits per surface. Buckets live in the cache (Redis in production), so every web
process shares them."""

from rest_framework.throttling import SimpleRateThrottle


class KioskThrottle(SimpleRateThrottle):
    scope = "kiosk"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": f"kiosk-{request.auth.pk}"}


class PairingThrottle(SimpleRateThrottle):
    """Pairing is unauthenticated: limit attempts per client IP so 6 digits cannot be guessed."""

    scope = "pairing"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class AgentThrottle(SimpleRateThrottle):
    scope = "agent"

    def get_cache_key(self, request, view):
        if request.user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}


class TokenApiThrottle(SimpleRateThrottle):
    """120 requests a minute per user: every token of one user shares the bucket (spec 8)."""

    scope = "token_api"

    def get_cache_key(self, request, view):
        if request.user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}
