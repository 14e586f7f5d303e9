"""The owner API's authentication: bearer access tokens of the client-credentials grant, issued
to this app's API keys (docs/decisions/structure.md "Layers": apps/api, below the domain apps, knows no key)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from oauth2_provider.models import AccessToken
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.accounts.api.authentication import OwnerSuspended
from apps.api.drf_request import django_request
from apps.owner_api import selectors
from apps.owner_api.models import OwnerApiKey
from apps.owner_api.scopes import ALL_SCOPES


class OwnerApiKeyAuthentication(authentication.BaseAuthentication):
    """Owner API: `Authorization: Bearer <access token>` from the client-credentials grant at
    POST /api/owner/oauth/token. django-oauth-toolkit checks the token (checksum lookup, expiry);
    the token's API key must still be live. `request.user` is the OwnerApiKey (the acting party,
    with `owner_id`), `request.auth` the AccessToken (with the granted scopes). A suspended
    owner's keys answer 403 OWNER_SUSPENDED."""

    www_authenticate_realm = "owner-api"

    def authenticate(self, request: Request) -> tuple[OwnerApiKey, AccessToken] | None:
        from oauth2_provider.oauth2_backends import get_oauthlib_core

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


class OwnerApiKeyScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of OwnerApiKeyAuthentication (drf-spectacular finds it by its class)."""

    target_class = OwnerApiKeyAuthentication
    name = "ownerApiKey"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, object]:
        return {
            "type": "oauth2",
            "description": (
                "Owner API keys: exchange the key's client id and secret (HTTP Basic or form fields) for a "
                "short-lived bearer token with the client-credentials grant."
            ),
            "flows": {"clientCredentials": {"tokenUrl": "/api/owner/oauth/token", "scopes": dict(ALL_SCOPES)}},
        }

    def get_security_requirement(self, auto_schema: AutoSchema) -> dict[str, list[str]]:
        scope = getattr(auto_schema.view, "required_scopes", {}).get(auto_schema.method)
        return {self.name: [scope] if scope else []}
