"""Agent API: sign-in (password, TOTP), sign-out, the CSRF cookie, the agent's own status."""

from django.contrib.auth import login as django_login
from django.contrib.auth import logout as django_logout
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts import services
from apps.accounts.backends import SIGN_IN_BACKEND
from apps.accounts.models import AgentStatus, PersonalAccessToken, User
from apps.api import xsrf
from apps.api.drf_request import django_request
from apps.api.inputs import client_ip, validated
from apps.api.views import AgentAPIView, AgentRequest, PublicAPIView
from apps.core.errors import DomainError, ErrorCode
from apps.routing.agent_presence import agent_signed_in


class AgentUserOut(serializers.ModelSerializer[User]):
    languages = serializers.ListField(
        child=serializers.CharField(), help_text="Languages served (primary subtags); empty: every language."
    )
    status_reason = serializers.CharField(help_text="Why the server set the status (missed_offers, gone), else empty.")
    status_message = serializers.SerializerMethodField(help_text="That reason in words for the dashboard, else empty.")

    class Meta:
        model = User
        fields = ["id", "name", "email", "is_agent", "agent_status", "languages", "status_reason", "status_message"]

    def get_status_message(self, user: User) -> str:
        return services.status_message(reason=user.status_reason, missed_offers=user.missed_offers)


class LoginIn(serializers.Serializer[None]):
    email = serializers.EmailField(max_length=254)
    password = serializers.CharField(max_length=256, trim_whitespace=False)
    remember = serializers.BooleanField(default=False)


class LoginOut(serializers.Serializer[None]):
    status = serializers.ChoiceField(choices=["ok", "2fa_required"])
    user = AgentUserOut(required=False)
    challenge_id = serializers.CharField(required=False)


class TwoFactorIn(serializers.Serializer[None]):
    challenge_id = serializers.CharField(max_length=64)
    code = serializers.RegexField(r"^\d{6}$", error_messages={"invalid": "Enter the 6-digit code."})


class AgentStatusIn(serializers.Serializer[None]):
    status = serializers.ChoiceField(choices=AgentStatus.values)


def _signed_in_response(request: Request, result: services.LoginResult) -> Response:
    """Start the cookie session: `app_session` (30 days sliding; a browser-session cookie
    unless `remember`) and a fresh XSRF-TOKEN bound to it. The agent is at work from now
    (an offline agent becomes available, or on break where its owner says so)."""
    assert result.user is not None
    agent_signed_in(result.user)
    wrapped = django_request(request)
    django_login(wrapped, result.user, backend=SIGN_IN_BACKEND)
    wrapped.session.set_expiry(None if result.remember else 0)
    response = Response({"status": "ok", "user": AgentUserOut(result.user).data})
    xsrf.issue_token(wrapped, response)
    return response


class CsrfCookieView(PublicAPIView):
    @extend_schema(responses={204: None}, summary="Set the XSRF-TOKEN cookie before signing in")
    def get(self, request: Request) -> Response:
        response = Response(status=204)
        xsrf.issue_token(django_request(request), response)
        return response


class LoginView(PublicAPIView):
    @extend_schema(request=LoginIn, responses={200: LoginOut}, summary="Sign in an agent")
    def post(self, request: Request) -> Response:
        xsrf.enforce(django_request(request))
        data = validated(LoginIn, request.data)
        result = services.agent_login(
            email=data["email"], password=data["password"], remember=data["remember"], ip=client_ip(request)
        )
        if result.challenge is not None:
            return Response({"status": "2fa_required", "challenge_id": result.challenge.public_id})
        return _signed_in_response(request, result)


class LoginTwoFactorView(PublicAPIView):
    @extend_schema(request=TwoFactorIn, responses={200: LoginOut}, summary="Complete sign-in with a TOTP code")
    def post(self, request: Request) -> Response:
        xsrf.enforce(django_request(request))
        data = validated(TwoFactorIn, request.data)
        result = services.two_factor_verify(challenge_id=data["challenge_id"], code=data["code"])
        return _signed_in_response(request, result)


class LogoutView(AgentAPIView):
    @extend_schema(request=None, responses={204: None}, summary="Sign out and invalidate the session")
    def post(self, request: AgentRequest) -> Response:
        django_logout(django_request(request))  # flushes the server-side session
        response = Response(status=204)
        xsrf.clear_cookie(response)
        return response


class CurrentUserView(AgentAPIView):
    @extend_schema(responses={200: AgentUserOut}, summary="The signed-in agent")
    def get(self, request: AgentRequest) -> Response:
        return Response(AgentUserOut(request.user).data)


class AgentStatusView(AgentAPIView):
    @extend_schema(
        request=AgentStatusIn,
        responses={200: inline_serializer("Ok", {"ok": serializers.BooleanField()})},
        summary="Set the agent's availability",
    )
    def post(self, request: AgentRequest) -> Response:
        data = validated(AgentStatusIn, request.data)
        services.agent_set_status(agent=request.user, status=data["status"])
        return Response({"ok": True})


class AccessTokenOut(serializers.ModelSerializer[PersonalAccessToken]):
    id = serializers.CharField()  # a string, as every agent API id but the user's (docs/decisions.md "Ids")

    class Meta:
        model = PersonalAccessToken
        fields = ["id", "name", "created_at", "last_used_at"]


class AccessTokenListView(AgentAPIView):
    @extend_schema(
        responses={200: inline_serializer("AccessTokenList", {"data": AccessTokenOut(many=True)})},
        summary="The agent's live access tokens (never their secrets)",
    )
    def get(self, request: AgentRequest) -> Response:
        tokens = PersonalAccessToken.objects.filter(user=request.user, revoked_at=None).order_by("-created_at")
        return Response({"data": AccessTokenOut(tokens, many=True).data})


class AccessTokenDetailView(AgentAPIView):
    @extend_schema(request=None, responses={204: None}, summary="Revoke one of the agent's access tokens")
    def delete(self, request: AgentRequest, token_id: int) -> Response:
        token = PersonalAccessToken.objects.filter(pk=token_id, user=request.user, revoked_at=None).first()
        if token is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such access token.")
        services.access_token_revoke(token=token)
        return Response(status=204)
