"""What every surface's base view shares: the method checked first, the unauthenticated base, the
catch-all for unknown routes, and the token API's TLS rule. Each surface's authenticated base
view lives with the app whose credentials it checks (apps.kiosks.api.base.KioskAPIView,
apps.accounts.api.base.AgentAPIView and TokenAPIView, apps.owner_api.api.base.OwnerAPIView), so
that apps/api imports no domain app (docs/decisions/structure.md "Layers")."""

from typing import TYPE_CHECKING

from django.conf import settings
from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import NotFound
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from apps.core.errors import DomainError, ErrorCode

# The mixin goes before APIView; for the type checker it is one.
if TYPE_CHECKING:
    _MixinBase = APIView
else:
    _MixinBase = object


class MethodCheckedFirst(_MixinBase):
    """An unsupported method is 405 before authentication, CSRF (419), throttles or content
    negotiation run: the answer depends on the route alone, as the schema documents it."""

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        method = (request.method or "").lower()
        if method not in self.http_method_names or not hasattr(self, method):
            self.http_method_not_allowed(request, *args, **kwargs)  # raises MethodNotAllowed
        super().initial(request, *args, **kwargs)


def ensure_tls(request: HttpRequest | Request) -> None:
    """The token API refuses plain HTTP (spec 5) unless REQUIRE_TLS is off (tests, embedded)."""
    if settings.REQUIRE_TLS and not request.is_secure():
        raise DomainError(ErrorCode.TLS_REQUIRED, "Use HTTPS: the token API refuses plain HTTP.")


class PublicAPIView(MethodCheckedFirst, APIView):
    """Unauthenticated endpoints (login, pairing, CSRF cookie); they add their own throttles."""

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes: list[type[BasePermission]] = []
    throttle_classes: list[type[BaseThrottle]] = []


class UnknownRouteView(PublicAPIView):
    """Catch-all at the end of each surface's URLs: unknown routes get the surface's envelope."""

    def initial(self, request: Request, *args: object, **kwargs: object) -> None:
        raise NotFound(f"There is no {request.method} {request.path} here.")
