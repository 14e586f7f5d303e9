"""POST /api/owner/oauth/token: the OAuth 2.0 client-credentials grant (RFC 6749 section 4.4).

django-oauth-toolkit's TokenView does the OAuth work (client authentication by HTTP Basic or
form fields, scope checks, token issue); this DRF view adds the surface's TLS rule, a per-IP
rate limit and the OpenAPI description. OAuth errors keep the RFC 6749 body
`{"error": "invalid_client", ...}` that OAuth client libraries expect.
"""

from collections.abc import Callable
from typing import Any

from django.http import HttpResponseBase
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema, inline_serializer
from oauth2_provider.views import TokenView
from rest_framework import serializers
from rest_framework.parsers import FormParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.api.drf_request import django_request
from apps.api.throttles import AtomicWindowThrottle
from apps.api.views import PublicAPIView, ensure_tls
from apps.owner_api.api.base import owner_api_exception_handler

_dot_token_view = TokenView.as_view()


class TokenRequestThrottle(AtomicWindowThrottle):
    """Token requests per client IP (THROTTLE_OWNER_API_TOKEN): secrets cannot be walked, even
    while Redis is away (a brute-force guard)."""

    scope = "owner_api_token"
    security_limit = True

    def get_cache_key(self, request: Request, view: APIView) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class TokenRequestIn(serializers.Serializer[None]):
    grant_type = serializers.ChoiceField(choices=["client_credentials"])
    scope = serializers.CharField(required=False, help_text="Space-separated; default: all of the key's scopes.")
    client_id = serializers.CharField(required=False, help_text="Only when not sent with HTTP Basic auth.")
    client_secret = serializers.CharField(required=False, help_text="Only when not sent with HTTP Basic auth.")


class OAuthErrorOut(serializers.Serializer[None]):
    """RFC 6749 section 5.2 error body, e.g. `invalid_client`, `invalid_scope`, `unsupported_grant_type`."""

    error = serializers.CharField()
    error_description = serializers.CharField(required=False)


class OwnerTokenView(PublicAPIView):
    parser_classes = [FormParser]
    throttle_classes = [TokenRequestThrottle]

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        ensure_tls(request)
        super().initial(request, *args, **kwargs)

    def get_exception_handler(self) -> Callable[[Exception, dict[str, Any]], Response]:
        return owner_api_exception_handler

    @extend_schema(
        request={"application/x-www-form-urlencoded": TokenRequestIn},
        responses={
            200: inline_serializer(
                "OwnerAccessToken",
                {
                    "access_token": serializers.CharField(),
                    "token_type": serializers.CharField(help_text="Bearer"),
                    "expires_in": serializers.IntegerField(help_text="Seconds (3600 by default)."),
                    "scope": serializers.CharField(),
                },
            ),
            400: OAuthErrorOut,
            401: OAuthErrorOut,
            403: OpenApiResponse(OAuthErrorOut, description="`owner_suspended`: the key's owner is suspended."),
        },
        examples=[OpenApiExample("client credentials", value={"grant_type": "client_credentials"}, request_only=True)],
        summary="Exchange an API key's client id and secret for a short-lived bearer token",
        auth=[],
    )
    def post(self, request: Request) -> HttpResponseBase:
        # The form body is read by DOT from the Django request; DRF never parses it here.
        response: HttpResponseBase = _dot_token_view(django_request(request))  # DOT's view is untyped
        return response
