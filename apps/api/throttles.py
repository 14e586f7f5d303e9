"""Rate limits per surface. Buckets live in the cache (Redis in production), so every web
process shares them. Every throttle counts with the atomic window below and keys a caller's
address on `client_ip` (TRUSTED_PROXIES), never on a raw X-Forwarded-For."""

import uuid
from typing import Protocol, runtime_checkable

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from apps.api.inputs import client_ip
from apps.core.cache import increment


@runtime_checkable
class _PairedDevice(Protocol):
    """What a kiosk request's `auth` (apps.kiosks.models.Kiosk) has for its bucket."""

    device_id: uuid.UUID | None
    token_hash: str


class _CountedRead(Protocol):
    """The part of apps.kiosks.api.kiosk_request.KioskRead (which imports this module) read here."""

    @property
    def window_key(self) -> str | None: ...
    @property
    def count(self) -> int | None: ...


class AtomicWindowThrottle(SimpleRateThrottle):
    """A fixed window counted with the cache's atomic increment (Redis INCR). DRF's own
    history list is read, appended and written back, so concurrent requests (several threads or
    web processes) overwrite each other's counts and a limit shared across processes is not
    enforced at all under load; an increment cannot lose a request.

    `security_limit`: a brute-force guard (pairing, token endpoints). While Redis is unreachable
    it counts in process memory instead of failing open, like the sign-in counters."""

    security_limit = False
    # Set by SimpleRateThrottle.__init__ from the rate (its stubs do not declare them).
    num_requests: int
    duration: int

    def get_ident(self, request: Request) -> str:
        return client_ip(request)

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        window = self.start_window(self.timer())
        count = self.count_request(request, f"{self.key}:{window}", int(self.duration) + 1)
        return self.admits(count) or self.throttle_failure()

    def start_window(self, now: float) -> int:
        """The number of the window `now` falls in (wait() counts to its end)."""
        self.now = now
        window = int(now // self.duration)
        self.window_ends_at = (window + 1) * self.duration
        return window

    def admits(self, count: int | None) -> bool:
        # None: the cache keeps losing the key: fail open, as on a cache outage
        return count is None or count <= self.num_requests

    def count_request(self, request: Request, window_key: str, timeout: int) -> int | None:
        return increment(window_key, timeout, security=self.security_limit)

    def wait(self) -> float:
        return max(1.0, self.window_ends_at - self.now)


class KioskThrottle(AtomicWindowThrottle):
    """Per paired device (its device id and token). Kiosk requests are the hottest, so the
    request's read step (apps.kiosks.api.kiosk_request) counts it in the same Redis round trip as its
    credentials read (`window_for`), and this judges that count (the kiosk hot path judges it
    with `admits` and answers `wait()`, outside DRF). A wrong token counts in a bucket of its
    own, so it cannot use up a kiosk's limit."""

    scope = "kiosk"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        kiosk = request.auth
        assert isinstance(kiosk, _PairedDevice)  # DeviceAuthentication and IsKiosk ran before the throttles
        return self._bucket_key(kiosk.device_id, kiosk.token_hash)

    def _bucket_key(self, device_id: uuid.UUID | None, token_hash: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": f"device-{device_id}-{token_hash[:16]}"}

    def window_for(self, device_id: uuid.UUID, token_hash: str) -> tuple[str, int] | None:
        """The counter key and lifetime of the current window (None: no limit)."""
        if self.rate is None:
            return None
        window = self.start_window(self.timer())
        return f"{self._bucket_key(device_id, token_hash)}:{window}", int(self.duration) + 1

    def count_request(self, request: Request, window_key: str, timeout: int) -> int | None:
        found: _CountedRead | None = getattr(request, "kiosk_read", None)
        if found is not None and found.window_key == window_key:
            return found.count
        return super().count_request(request, window_key, timeout)  # counted in an earlier window


class PairingThrottle(AtomicWindowThrottle):
    """Pairing is unauthenticated: limit attempts per client IP so 6 digits cannot be guessed."""

    scope = "pairing"
    security_limit = True

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class _PerUserThrottle(AtomicWindowThrottle):
    """One bucket per signed-in user, whichever session or token it came with."""

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"user-{request.user.pk}"}


class AgentThrottle(_PerUserThrottle):
    scope = "agent"


class TokenApiThrottle(_PerUserThrottle):
    """120 requests a minute per user: every token of one user shares the bucket (spec 8)."""

    scope = "token_api"
