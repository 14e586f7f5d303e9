"""The three authentication classes, one per surface (spec section 5)."""

import uuid
from typing import TYPE_CHECKING, Any

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.accounts.suspension import SUSPENDED_MESSAGE
from apps.api import xsrf
from apps.api.drf_request import django_request
from apps.core.errors import DomainError, ErrorCode

if TYPE_CHECKING:
    from apps.accounts.models import PersonalAccessToken, User
    from apps.kiosks.models import Kiosk
    from apps.kiosks.selectors import DeviceCredentials
    from apps.owner_api.models import OwnerApiKey

_DEVICE_TOKEN_INVALID = "The device token is invalid or has been revoked."


class OwnerSuspended(DomainError, exceptions.APIException):
    """403 OWNER_SUSPENDED, raised while authenticating a suspended owner's token or key. DRF
    takes it as an APIException (the request stays unauthenticated, nothing runs); the exception
    handler renders it as the DomainError it is, in the surface's envelope."""

    status_code = 403

    def __init__(self) -> None:
        DomainError.__init__(self, ErrorCode.OWNER_SUSPENDED, SUSPENDED_MESSAGE)
        self.detail = exceptions.ErrorDetail(SUSPENDED_MESSAGE, code=ErrorCode.OWNER_SUSPENDED)


def device_presented(device_id: str, token: str) -> tuple[uuid.UUID, str]:
    """The device id and the hash of the token a kiosk request presents (its X-Device-Id and
    X-Device-Token headers); NotAuthenticated or AuthenticationFailed (401) when malformed."""
    from apps.kiosks.models import hash_device_token

    if not device_id or not token:
        raise exceptions.NotAuthenticated("The X-Device-Id and X-Device-Token headers are required.")
    try:
        device_uuid = uuid.UUID(device_id)
    except ValueError:
        raise exceptions.AuthenticationFailed(_DEVICE_TOKEN_INVALID) from None
    return device_uuid, hash_device_token(token)


def device_refused(credentials: "DeviceCredentials | None") -> "DeviceCredentials":
    """The credentials, or AuthenticationFailed (401) when their lookup found no paired kiosk."""
    if credentials is None:
        raise exceptions.AuthenticationFailed(_DEVICE_TOKEN_INVALID)
    return credentials


class DeviceAuthentication(authentication.BaseAuthentication):
    """Kiosk API: X-Device-Id + X-Device-Token. Any failure is 401 DEVICE_TOKEN_INVALID.

    It only authenticates: the request's cache round trip (which also counts its rate window),
    its heartbeat and its throttling are steps of their own (apps.api.kiosk_request), run by
    KioskAPIView around it and by the kiosk hot path.
    """

    def authenticate(self, request: Request) -> "tuple[None, Kiosk]":
        from apps.kiosks import selectors

        device_uuid, token_hash = device_presented(
            request.headers.get("X-Device-Id", ""), request.headers.get("X-Device-Token", "")
        )
        found = getattr(request, "kiosk_read", None)
        if found is None:  # a view that runs no read step: read the credentials alone
            credentials = selectors.kiosk_for_device_credentials(device_id=device_uuid, token_hash=token_hash)
        else:
            credentials = selectors.credentials_from_cache(
                device_id=device_uuid, token_hash=token_hash, cached=found.cached, count=found.count
            )
        return (None, device_refused(credentials).kiosk)

    def authenticate_header(self, request: Request | None) -> str:
        return "Device"


class AgentSessionAuthentication(authentication.BaseAuthentication):
    """Agent API: the `app_session` cookie session of an active agent user, plus X-XSRF-TOKEN."""

    def authenticate(self, request: Request) -> "tuple[User, None] | None":
        from apps.accounts.models import User

        # AuthenticationMiddleware's lazy user (isinstance sees through it), or AnonymousUser
        user = getattr(django_request(request), "user", None)
        if not isinstance(user, User) or not user.is_active or not user.is_agent:
            return None
        xsrf.enforce(django_request(request))
        return (user, None)

    def authenticate_header(self, request: Request) -> str:
        return "Session"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """Token API: `Authorization: Bearer {id}|{secret}` personal access tokens. A suspended
    owner's agents' tokens answer 403 OWNER_SUSPENDED."""

    def authenticate(self, request: Request) -> "tuple[User, PersonalAccessToken] | None":
        from apps.accounts import selectors

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


class OwnerApiKeyAuthentication(authentication.BaseAuthentication):
    """Owner API: `Authorization: Bearer <access token>` from the client-credentials grant at
    POST /api/owner/oauth/token. django-oauth-toolkit checks the token (checksum lookup, expiry);
    the token's API key must still be live. `request.user` is the OwnerApiKey (the acting party,
    with `owner_id`), `request.auth` the AccessToken (with the granted scopes). A suspended
    owner's keys answer 403 OWNER_SUSPENDED."""

    www_authenticate_realm = "owner-api"

    def authenticate(self, request: Request) -> "tuple[OwnerApiKey, Any] | None":  # Any: oauthlib's token
        from oauth2_provider.oauth2_backends import get_oauthlib_core

        from apps.owner_api import selectors

        scheme, _, raw_token = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not raw_token.strip():
            return None
        # Only the header is handed to oauthlib: the body is never parsed here (a malformed
        # multipart body must stay the parser's 4xx), and tokens elsewhere are not accepted.
        valid, oauth_request = get_oauthlib_core().server.verify_request(
            django_request(request).build_absolute_uri(request.path),
            request.method,
            body="",
            headers={"Authorization": f"Bearer {raw_token.strip()}"},
            scopes=[],
        )
        access_token = getattr(oauth_request, "access_token", None) if valid else None
        key = selectors.api_key_for_application(access_token.application_id) if access_token else None
        if key is None:
            description = getattr(oauth_request, "oauth2_error", {}).get("error_description")
            raise exceptions.AuthenticationFailed(
                str(description or "The access token is invalid.") + " Request a new one at /api/owner/oauth/token."
            )
        if key.owner.suspended:
            raise OwnerSuspended()
        return (key, access_token)

    def authenticate_header(self, request: Request) -> str:
        return f'Bearer realm="{self.www_authenticate_realm}"'
