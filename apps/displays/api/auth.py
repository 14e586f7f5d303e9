"""How a screen signs in to /api/displays/*: a wall screen's display token (`X-Display-Token`),
or the Django session of a signed-in owner, manager or kitchen user (with Django's CSRF check on
writes, as panel pages do). Either way the view gets a `Viewer` (apps.displays.services)."""

from typing import TYPE_CHECKING

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from apps.accounts.actors import display_member
from apps.accounts.api.authentication import MemberSessionAuthentication
from apps.accounts.models import User
from apps.api.schema import session_cookie_scheme
from apps.api.throttles import AtomicWindowThrottle
from apps.displays import services

TOKEN_HEADER = "X-Display-Token"

# What the two schemes below guarantee, for the type checker (DRF types `auth` and `user` for any
# scheme): at run time it is DRF's Request.
if TYPE_CHECKING:
    from apps.api.typed_request import SurfaceRequest

    # `auth` is the token's Viewer, or None for a signed-in user (then `user` is that user).
    DisplayRequest = SurfaceRequest[User, services.Viewer | None]
else:
    DisplayRequest = Request


class DisplayTokenAuthentication(BaseAuthentication):
    """`request.auth` is the token's Viewer; a wrong or revoked token is 401."""

    def authenticate(self, request: Request) -> tuple[None, services.Viewer] | None:
        raw = request.headers.get(TOKEN_HEADER, "")
        if not raw:
            return None
        viewer = services.viewer_for_token(raw.strip())
        if viewer is None:
            raise exceptions.AuthenticationFailed("The display token is invalid or has been revoked.")
        return (None, viewer)

    def authenticate_header(self, request: Request) -> str:
        return "Display"


class DisplaySessionAuthentication(MemberSessionAuthentication):
    """`request.user` is the signed-in owner, manager or kitchen user; its Viewer is made by the
    view (it names the business in `?business=`)."""

    def is_member(self, user: User) -> bool:
        return display_member(user)


class IsDisplay(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.auth is not None or bool(getattr(request.user, "is_authenticated", False))


class DisplayThrottle(AtomicWindowThrottle):
    scope = "display"

    def get_cache_key(self, request: Request, view: APIView) -> str:
        viewer = request.auth if isinstance(request.auth, services.Viewer) else None
        ident = (
            f"user-{request.user.pk}" if viewer is None else f"display-{viewer.business.pk}-{self.get_ident(request)}"
        )
        return self.cache_format % {"scope": self.scope, "ident": ident}


class DisplayTokenScheme(OpenApiAuthenticationExtension):
    target_class = "apps.displays.api.auth.DisplayTokenAuthentication"
    name = "displayToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, object]:
        return {"type": "apiKey", "in": "header", "name": TOKEN_HEADER, "description": "A display token's secret."}


class DisplaySessionScheme(OpenApiAuthenticationExtension):
    target_class = "apps.displays.api.auth.DisplaySessionAuthentication"
    name = "displaySession"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, object]:
        return session_cookie_scheme("A signed-in owner, manager or kitchen user; writes carry X-CSRFToken.")
