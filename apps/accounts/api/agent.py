"""Agent API: sign-out, the CSRF cookie, the signed-in agent and its own status, its access tokens.
Signing in is the dashboard's (apps/agent_app/api/sign_in.py): it starts the agent's work,
which is routing's."""

from django.contrib.auth import logout as django_logout
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts import seats_hook, services
from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import AgentStatus, PersonalAccessToken, User
from apps.api import xsrf
from apps.api.drf_request import django_request
from apps.api.inputs import validated
from apps.api.views import PublicAPIView
from apps.core.errors import DomainError, ErrorCode


class AgentUserOut(serializers.ModelSerializer[User]):
    languages = serializers.ListField(
        child=serializers.CharField(), help_text="Languages served (primary subtags); empty: every language."
    )
    status_reason = serializers.CharField(help_text="Why the server set the status (missed_offers, gone), else empty.")
    status_message = serializers.SerializerMethodField(help_text="That reason in words for the dashboard, else empty.")

    class Meta:
        model = User
        fields = [
            "id",
            "name",
            "email",
            "is_agent",
            "agent_status",
            "languages",
            "status_reason",
            "status_message",
        ]

    def get_status_message(self, user: User) -> str:
        return services.status_message(reason=user.status_reason, missed_offers=user.missed_offers)


class SignedInAgentOut(AgentUserOut):
    """GET /api/user: the agent, with its seats (apps/sessions/seats.py)."""

    capacity = serializers.SerializerMethodField(
        help_text="How many customers the agent serves at once: at most one on video, the others paying or "
        "writing in the chat (its own number, else its owner's, else the default)."
    )
    sessions_held = serializers.SerializerMethodField(help_text="Its sessions now active or in payment.")

    class Meta(AgentUserOut.Meta):
        fields = [*AgentUserOut.Meta.fields, "capacity", "sessions_held"]

    def _seats(self, user: User) -> tuple[int, int]:
        cache: dict[int, tuple[int, int]] = self.__dict__.setdefault("_seats_read", {})  # one read per agent
        if user.pk not in cache:
            cache[user.pk] = seats_hook.seats_of(user)
        return cache[user.pk]

    def get_capacity(self, user: User) -> int:
        return self._seats(user)[0]

    def get_sessions_held(self, user: User) -> int:
        return self._seats(user)[1]


class AgentStatusIn(serializers.Serializer[None]):
    status = serializers.ChoiceField(choices=AgentStatus.values)


class CsrfCookieView(PublicAPIView):
    @extend_schema(responses={204: None}, summary="Set the XSRF-TOKEN cookie before signing in")
    def get(self, request: Request) -> Response:
        response = Response(status=204)
        xsrf.issue_token(django_request(request), response)
        return response


class LogoutView(AgentAPIView):
    @extend_schema(request=None, responses={204: None}, summary="Sign out and invalidate the session")
    def post(self, request: AgentRequest) -> Response:
        django_logout(django_request(request))  # flushes the server-side session
        response = Response(status=204)
        xsrf.clear_cookie(response)
        return response


class CurrentUserView(AgentAPIView):
    @extend_schema(responses={200: SignedInAgentOut}, summary="The signed-in agent")
    def get(self, request: AgentRequest) -> Response:
        return Response(SignedInAgentOut(request.user).data)


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
    id = serializers.CharField()  # a string, as every agent API id but the user's (docs/decisions/payments.md "Ids")

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
