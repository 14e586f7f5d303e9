"""Agent API: signing in to the dashboard (password, then a TOTP code where the agent has one).
Accounts check the credentials; a signed-in agent is at work from then on (routing's presence:
an offline agent becomes available, or on break where its owner says so), so the views live
here, above both."""

from django.contrib.auth import login as django_login
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts import services
from apps.accounts.api.agent import AgentUserOut
from apps.accounts.backends import SIGN_IN_BACKEND
from apps.api import xsrf
from apps.api.drf_request import django_request
from apps.api.inputs import client_ip, validated
from apps.api.views import PublicAPIView
from apps.routing.agent_presence import agent_signed_in


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
