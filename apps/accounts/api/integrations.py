"""Owner-scoped token API: issue and revoke personal access tokens; who am I."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts import login_throttle, services
from apps.accounts.api.agent import AgentUserOut
from apps.accounts.api.base import AgentRequest, TokenAPIView, TokenRequest
from apps.accounts.models import User
from apps.api.inputs import client_ip, validated
from apps.api.operations import NO_CONTENT, Answer, operation
from apps.api.permissions import HasToken
from apps.api.views import PublicAPIView, ensure_tls
from apps.core.errors import DomainError, ErrorCode


class TokenLoginIn(serializers.Serializer[None]):
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    code = serializers.RegexField(r"^\d{6}$", required=False, help_text="TOTP code, for agents with 2FA.")


class TokenLoginView(PublicAPIView):
    @extend_schema(
        request=TokenLoginIn,
        responses={200: inline_serializer("TokenLoginOut", {"token": serializers.CharField(), "user": AgentUserOut()})},
        summary="Exchange an agent's email and password for a bearer token (shown once)",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        ensure_tls(request)
        data = validated(TokenLoginIn, request.data)
        ip = client_ip(request)
        # A correct password resets the password-failure counter, so wrong TOTP codes are counted
        # on a key of their own: 5 a minute per email + IP, then 429, as the agent 2FA challenge
        # burns after 5. Without it a stolen password could walk the 10^6 codes here.
        second_factor_key = f"2fa:{data['email']}"
        login_throttle.ensure_allowed(second_factor_key, ip)
        try:
            token, plaintext = services.token_login(
                email=data["email"], password=data["password"], code=data.get("code"), ip=ip
            )
        except DomainError as exc:
            if exc.code == ErrorCode.INVALID_2FA_CODE:
                login_throttle.record_failure(second_factor_key, ip)
            raise
        return Response({"token": plaintext, "user": AgentUserOut(token.user).data})


class TokenLogoutView(TokenAPIView):
    permission_classes = [HasToken]  # an ownerless agent may still revoke its own token
    allowed_while_suspended = True  # giving a token up is always allowed

    @operation(NO_CONTENT)
    def post(self, request: TokenRequest) -> None:
        """Revoke the token used for this request"""
        services.access_token_revoke(token=request.auth)


class TokenUserView(TokenAPIView):
    @operation(Answer(AgentUserOut()))
    def get(self, request: AgentRequest) -> User:
        """The agent this token belongs to"""
        return request.user
