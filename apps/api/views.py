"""Base views, one per surface: each sets that surface's authentication, permissions and
throttles once, so endpoint views only declare what they do."""

from typing import TYPE_CHECKING

from django.conf import settings
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.views import APIView

from apps.api import kiosk_request
from apps.api.authentication import AgentSessionAuthentication, BearerTokenAuthentication, DeviceAuthentication
from apps.api.permissions import HasOwnerToken, IsAgent, IsKiosk
from apps.api.throttles import AgentThrottle, KioskThrottle, TokenApiThrottle
from apps.core.errors import DomainError, ErrorCode

# The mixin goes before APIView; for the type checker it is one.
if TYPE_CHECKING:
    _MixinBase = APIView
else:
    _MixinBase = object

# What each surface's authentication and permission classes guarantee about its requests, for
# the type checker (DRF types `user` and `auth` for any scheme): at runtime both are DRF's Request.
if TYPE_CHECKING:
    from apps.accounts.models import User
    from apps.kiosks.models import Kiosk

    class KioskRequest(Request):
        """After DeviceAuthentication and IsKiosk: `auth` is the Kiosk."""

        @property
        def auth(self) -> Kiosk: ...
        @auth.setter
        def auth(self, value: Kiosk) -> None: ...

    class AgentRequest(Request):
        """After agent or token authentication and IsAgent or HasOwnerToken: `user` is the agent."""

        @property
        def user(self) -> User: ...
        @user.setter
        def user(self, value: User) -> None: ...

else:
    KioskRequest = AgentRequest = Request


class MethodCheckedFirst(_MixinBase):
    """An unsupported method is 405 before authentication, CSRF (419), throttles or content
    negotiation run: the answer depends on the route alone, as the schema documents it."""

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        method = (request.method or "").lower()
        if method not in self.http_method_names or not hasattr(self, method):
            self.http_method_not_allowed(request, *args, **kwargs)  # raises MethodNotAllowed
        super().initial(request, *args, **kwargs)


class KioskAPIView(MethodCheckedFirst, APIView):
    """Kiosk API: `request.auth` is the authenticated Kiosk."""

    # The request's steps (read, then authenticate, then heartbeat; the throttle after) are
    # apps.api.kiosk_request's (a comment: this docstring is each kiosk operation's description).

    authentication_classes = [DeviceAuthentication]
    permission_classes = [IsKiosk]
    throttle_classes = [KioskThrottle]

    def perform_authentication(self, request):
        found = kiosk_request.read_request(request)
        super().perform_authentication(request)
        if found is not None and request.auth is not None:
            kiosk_request.record_heartbeat(request.auth, found)


class AgentAPIView(MethodCheckedFirst, APIView):
    """Agent API: `request.user` is the signed-in agent; mutating calls carry X-XSRF-TOKEN."""

    authentication_classes = [AgentSessionAuthentication]
    permission_classes = [IsAgent]
    throttle_classes = [AgentThrottle]


def ensure_tls(request) -> None:
    """The token API refuses plain HTTP (spec 5) unless REQUIRE_TLS is off (tests, embedded)."""
    if settings.REQUIRE_TLS and not request.is_secure():
        raise DomainError(ErrorCode.TLS_REQUIRED, "Use HTTPS: the token API refuses plain HTTP.")


class TokenAPIView(MethodCheckedFirst, APIView):
    """Owner-scoped token API: `request.user` is the token's agent, `request.auth` the token."""

    authentication_classes = [BearerTokenAuthentication]
    permission_classes = [HasOwnerToken]
    throttle_classes = [TokenApiThrottle]

    def initial(self, request, *args, **kwargs):
        ensure_tls(request)
        super().initial(request, *args, **kwargs)


class PublicAPIView(MethodCheckedFirst, APIView):
    """Unauthenticated endpoints (login, pairing, CSRF cookie); they add their own throttles."""

    authentication_classes: list = []
    permission_classes: list = []
    throttle_classes: list = []


class UnknownRouteView(PublicAPIView):
    """Catch-all at the end of each surface's URLs: unknown routes get the surface's envelope."""

    def initial(self, request, *args, **kwargs):
        raise NotFound(f"There is no {request.method} {request.path} here.")
