"""The owner API surface's base view: API-key authentication, one scope per method, a rate
limit per key, and 403 INSUFFICIENT_SCOPE in the usual {error: {code, message}} envelope."""

from rest_framework import exceptions
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback

from apps.api.errors import error_body, exception_handler
from apps.api.throttles import AtomicWindowThrottle
from apps.api.views import MethodCheckedFirst, ensure_tls
from apps.core.actor import API_KEY, Actor
from apps.owner_api.api.authentication import OwnerApiKeyAuthentication

INSUFFICIENT_SCOPE = "INSUFFICIENT_SCOPE"


class InsufficientScope(exceptions.PermissionDenied):
    def __init__(self, scope: str):
        self.scope = scope
        super().__init__(f"This access token lacks the `{scope}` scope.")


class HasRequiredScope(BasePermission):
    """The token (and its still-live key) must hold the scope the view names for the method."""

    def has_permission(self, request, view) -> bool:
        if request.user is None or request.auth is None:
            return False
        scope = view.required_scopes.get(request.method)
        if scope is None:
            return True
        if not (request.auth.allow_scopes([scope]) and request.user.allows(scope)):
            raise InsufficientScope(scope)
        return True


def request_actor(request) -> Actor:
    """The key's owner, with the scopes both the key (still live) and this token hold."""
    key, token = request.user, request.auth
    scopes = frozenset(scope for scope in key.scope_list if key.allows(scope) and token.allow_scopes([scope]))
    return Actor(owner_id=key.owner_id, who=API_KEY, scopes=scopes)


class OwnerApiThrottle(AtomicWindowThrottle):
    """120 requests a minute per API key (THROTTLE_OWNER_API); all of a key's tokens share it."""

    scope = "owner_api"

    def get_cache_key(self, request, view):
        if request.user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"key-{request.user.pk}"}


def owner_api_exception_handler(exc: Exception, context: dict) -> Response:
    """The shared handler, plus INSUFFICIENT_SCOPE and RFC 6750 `WWW-Authenticate` challenges."""
    request = context["request"]
    if isinstance(exc, InsufficientScope):
        set_rollback()
        body = error_body(request, INSUFFICIENT_SCOPE, str(exc.detail), details={"required_scope": exc.scope})
        challenge = f'Bearer realm="owner-api", error="insufficient_scope", scope="{exc.scope}"'
        return Response(body, status=403, headers={"WWW-Authenticate": challenge})
    response = exception_handler(exc, context)
    if response.status_code == 401:
        sent_token = request.headers.get("Authorization", "").lower().startswith("bearer ")
        response["WWW-Authenticate"] = 'Bearer realm="owner-api"' + (', error="invalid_token"' if sent_token else "")
    return response


class OwnerAPIView(MethodCheckedFirst, APIView):
    """Owner API: `request.user` is the OwnerApiKey, `request.auth` its access token.
    `required_scopes` maps each HTTP method to the scope it needs."""

    authentication_classes = [OwnerApiKeyAuthentication]
    permission_classes = [HasRequiredScope]
    throttle_classes = [OwnerApiThrottle]
    required_scopes: dict[str, str] = {}

    def initial(self, request, *args, **kwargs):
        ensure_tls(request)
        super().initial(request, *args, **kwargs)

    def get_exception_handler(self):
        return owner_api_exception_handler
