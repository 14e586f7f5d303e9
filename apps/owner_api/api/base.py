"""The owner API surface's base view: API-key authentication, one scope per method, a rate
limit per key, and 403 INSUFFICIENT_SCOPE in the usual {error: {code, message}} envelope."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from oauth2_provider.models import AccessToken
from rest_framework import exceptions, serializers
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView, set_rollback

from apps.api.errors import error_body, exception_handler
from apps.api.operations import Answer, Handler, operation
from apps.api.throttles import AtomicWindowThrottle
from apps.api.views import MethodCheckedFirst, ensure_tls
from apps.core.actor import API_KEY, Actor
from apps.owner_api.api.authentication import OwnerApiKeyAuthentication
from apps.owner_api.models import OwnerApiKey
from apps.owner_api.scopes import Scope

INSUFFICIENT_SCOPE = "INSUFFICIENT_SCOPE"
_SCOPE = "owner_api_scope"  # the attribute owner_operation puts the method's scope in

# What OwnerApiKeyAuthentication and HasRequiredScope guarantee about a request, for the type
# checker (DRF types `user` and `auth` for any scheme): at runtime it is DRF's Request.
if TYPE_CHECKING:
    from apps.api.typed_request import SurfaceRequest

    # `user` is the live OwnerApiKey (DRF puts the authenticated credential there: here an API
    # key, not a user), `auth` its access token.
    OwnerApiRequest = SurfaceRequest[OwnerApiKey, AccessToken]
else:
    OwnerApiRequest = Request


class InsufficientScope(exceptions.PermissionDenied):
    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__(f"This access token lacks the `{scope}` scope.")


class HasRequiredScope(BasePermission):
    """The token (and its still-live key) must hold the scope the view names for the method."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        if not isinstance(request.user, OwnerApiKey) or request.auth is None:
            return False
        scope = view.required_scopes.get(request.method or "") if isinstance(view, OwnerAPIView) else None
        if scope is None:
            return True
        if not (request.auth.allow_scopes([scope]) and request.user.allows(scope)):
            raise InsufficientScope(scope)
        return True


def request_actor(request: OwnerApiRequest) -> Actor:
    """The key's owner, with the scopes both the key (still live) and this token hold."""
    key, token = request.user, request.auth
    scopes = frozenset(scope for scope in key.scope_list if key.allows(scope) and token.allow_scopes([scope]))
    return Actor(owner_id=key.owner_id, who=API_KEY, scopes=scopes)


def enveloped(name: str, out: serializers.BaseSerializer[Any], status: int = 200) -> Answer:
    """An owner API answer: `{"data": out}`, its schema the component `name`."""
    return Answer(out, status, envelope=name)


def owner_operation(scope: Scope, answer: Answer, **declared: Any) -> Callable[[Handler], Handler]:
    """apps.api.operations.operation, plus the scope the method needs (OwnerAPIView collects it
    into `required_scopes`)."""

    def declare(method: Handler) -> Handler:
        handle = operation(answer, **declared)(method)
        setattr(handle, _SCOPE, scope)
        return handle

    return declare


class OwnerApiThrottle(AtomicWindowThrottle):
    """120 requests a minute per API key (THROTTLE_OWNER_API); all of a key's tokens share it."""

    scope = "owner_api"

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        if request.user is None:  # no key: DRF's UNAUTHENTICATED_USER is None here
            return None
        return self.cache_format % {"scope": self.scope, "ident": f"key-{request.user.pk}"}


def owner_api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
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

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """`required_scopes`: a view's own, and the scope of each method declared by owner_operation."""
        super().__init_subclass__(**kwargs)
        declared = {name.upper(): getattr(getattr(cls, name, None), _SCOPE, None) for name in cls.http_method_names}
        cls.required_scopes = {**cls.required_scopes, **{m: s for m, s in declared.items() if s is not None}}

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        ensure_tls(request)
        super().initial(request, *args, **kwargs)

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response]:
        return owner_api_exception_handler
