"""The token API's authentication (personal access tokens of this app's users), and the refusal
of a suspended owner's credentials that the owner API shares (docs/decisions/structure.md "Layers":
apps/api, below the domain apps, knows no user)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.accounts import selectors
from apps.accounts.models import PersonalAccessToken, User
from apps.accounts.suspension import SUSPENDED_MESSAGE
from apps.api.drf_request import django_request
from apps.core.errors import DomainError, ErrorCode


class OwnerSuspended(DomainError, exceptions.APIException):
    """403 OWNER_SUSPENDED, raised while authenticating a suspended owner's token or key. DRF
    takes it as an APIException (the request stays unauthenticated, nothing runs); the exception
    handler renders it as the DomainError it is, in the surface's envelope."""

    status_code = 403

    def __init__(self) -> None:
        DomainError.__init__(self, ErrorCode.OWNER_SUSPENDED, SUSPENDED_MESSAGE)
        self.detail = exceptions.ErrorDetail(SUSPENDED_MESSAGE, code=ErrorCode.OWNER_SUSPENDED)


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """Token API: `Authorization: Bearer {id}|{secret}` personal access tokens. A suspended
    owner's agents' tokens answer 403 OWNER_SUSPENDED."""

    def authenticate(self, request: Request) -> tuple[User, PersonalAccessToken] | None:
        header = request.headers.get("Authorization", "")
        scheme, _, raw_token = header.partition(" ")
        if scheme.lower() != "bearer" or not raw_token.strip():
            return None
        access_token = selectors.access_token_for_bearer(raw_token.strip())
        if access_token is None:
            raise exceptions.AuthenticationFailed("The access token is invalid or has been revoked.")
        owner = access_token.user.owner
        view = (request.parser_context or {}).get("view")
        if owner is not None and owner.suspended and not getattr(view, "allowed_while_suspended", False):
            raise OwnerSuspended()  # the token is kept: it works again once the owner is reinstated
        return (access_token.user, access_token)

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"


class BearerTokenScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of BearerTokenAuthentication (drf-spectacular finds it by its class)."""

    target_class = BearerTokenAuthentication
    name = "bearerToken"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, str]:
        return {"type": "http", "scheme": "bearer", "description": "Personal access token `{id}|{secret}`."}


class MemberSessionAuthentication(authentication.SessionAuthentication):
    """A signed-in user's Django session, with Django's CSRF check, for the users `is_member`
    admits (each surface names its members); anyone else is left unauthenticated."""

    def is_member(self, user: User) -> bool:
        raise NotImplementedError

    def authenticate(self, request: Request) -> tuple[User, None] | None:
        user = getattr(django_request(request), "user", None)
        if user is None or not user.is_authenticated or not self.is_member(user):
            return None
        self.enforce_csrf(request)
        return (user, None)
