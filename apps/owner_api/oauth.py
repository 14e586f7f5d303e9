"""django-oauth-toolkit hooks for the owner API: only live API keys may obtain tokens.

Only DOT's public validator hooks (oauthlib's RequestValidator methods) are overridden.
"""

import base64
import binascii
from collections.abc import Iterator
from urllib.parse import unquote_plus

from oauth2_provider.oauth2_validators import OAuth2Validator
from oauthlib.common import Request as OAuthRequest
from oauthlib.oauth2.rfc6749.errors import OAuth2Error

from apps.accounts.suspension import SUSPENDED_MESSAGE
from apps.owner_api.models import OwnerApiKey


class OwnerSuspendedError(OAuth2Error):  # type: ignore[misc]  # oauthlib ships no types
    """The key is right but its owner is suspended: 403 with the RFC 6749 body
    `{"error": "owner_suspended", "error_description": ...}` (an extension error code)."""

    error = "owner_suspended"
    status_code = 403
    description = SUSPENDED_MESSAGE


class OwnerApiOAuth2Validator(OAuth2Validator):  # type: ignore[misc]  # django-oauth-toolkit ships no types
    """OAUTH2_PROVIDER["OAUTH2_VALIDATOR_CLASS"]. DOT checks the client id and the hashed secret
    (HTTP Basic or the form body); a revoked key, or an Application that is no owner's key, is
    refused as `invalid_client` even with the right secret; a suspended owner's key as
    `owner_suspended` (403)."""

    # No client id holds a NUL, and PostgreSQL cannot compare one (a DataError): each hook that
    # would look a client id up answers "no such client" (invalid_client) first.

    def client_authentication_required(self, request: OAuthRequest, *args: object, **kwargs: object) -> bool:
        if _carries_nul(request):
            return True  # then authenticate_client refuses it
        return bool(super().client_authentication_required(request, *args, **kwargs))

    def authenticate_client_id(
        self, client_id: str | None, request: OAuthRequest, *args: object, **kwargs: object
    ) -> bool:
        if "\x00" in (client_id or "") or _carries_nul(request):
            return False
        return bool(super().authenticate_client_id(client_id, request, *args, **kwargs))

    def validate_client_id(self, client_id: str | None, request: OAuthRequest, *args: object, **kwargs: object) -> bool:
        if "\x00" in (client_id or "") or _carries_nul(request):
            return False
        return bool(super().validate_client_id(client_id, request, *args, **kwargs))

    def authenticate_client(self, request: OAuthRequest, *args: object, **kwargs: object) -> bool:
        if _carries_nul(request) or not super().authenticate_client(request, *args, **kwargs):
            return False
        live_keys = OwnerApiKey.objects.select_related("owner").filter(revoked_at=None)
        key = live_keys.filter(application_id=request.client.pk).first()
        if key is None:
            return False
        if key.owner.suspended:
            raise OwnerSuspendedError(request=request)
        return True


def _client_ids(request: OAuthRequest) -> Iterator[str]:
    """The client ids a token request names: the form field and the HTTP Basic user name (as DOT
    reads it: base64, then form-decoded)."""
    yield getattr(request, "client_id", None) or ""
    headers = request.headers or {}
    authorization = headers.get("HTTP_AUTHORIZATION") or headers.get("Authorization") or ""
    scheme, _, credentials = authorization.partition(" ")
    if scheme.lower() != "basic":
        return
    try:
        decoded = base64.b64decode(credentials.strip()).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return
    yield unquote_plus(decoded.split(":", 1)[0])


def _carries_nul(request: OAuthRequest) -> bool:
    return any("\x00" in client_id for client_id in _client_ids(request))
