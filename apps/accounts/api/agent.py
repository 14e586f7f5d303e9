"""Agent API: sign-out, the CSRF cookie, the signed-in agent and its own status, its access tokens.
Signing in is the dashboard's (apps/agent_app/api/sign_in.py): it starts the agent's work,
which is routing's."""

from django.contrib.auth import logout as django_logout
from django.db.models import QuerySet
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts import seats_hook, services
from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import AgentStatus, PersonalAccessToken, User
from apps.api import xsrf
from apps.api.drf_request import django_request
from apps.api.operations import NO_CONTENT, Answer, Data, operation
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
    @operation(NO_CONTENT)
    def get(self, request: Request) -> Response:
        """Set the XSRF-TOKEN cookie before signing in"""
        response = Response(status=204)
        xsrf.issue_token(django_request(request), response)
        return response


class LogoutView(AgentAPIView):
    @operation(NO_CONTENT)
    def post(self, request: AgentRequest) -> Response:
        """Sign out and invalidate the session"""
        django_logout(django_request(request))  # flushes the server-side session
        response = Response(status=204)
        xsrf.clear_cookie(response)
        return response


class CurrentUserView(AgentAPIView):
    @operation(Answer(SignedInAgentOut()))
    def get(self, request: AgentRequest) -> User:
        """The signed-in agent"""
        return request.user


class AgentStatusView(AgentAPIView):
    @operation(Answer(inline_serializer("Ok", {"ok": serializers.BooleanField()})), body=AgentStatusIn)
    def post(self, request: AgentRequest, data: Data) -> dict[str, bool]:
        """Set the agent's availability"""
        services.agent_set_status(agent=request.user, status=data["status"])
        return {"ok": True}


class AccessTokenOut(serializers.ModelSerializer[PersonalAccessToken]):
    id = serializers.CharField()  # a string, as every agent API id but the user's (docs/decisions/payments.md "Ids")

    class Meta:
        model = PersonalAccessToken
        fields = ["id", "name", "created_at", "last_used_at"]


class AccessTokenListView(AgentAPIView):
    @operation(Answer(AccessTokenOut(many=True), envelope="AccessTokenList"))
    def get(self, request: AgentRequest) -> QuerySet[PersonalAccessToken]:
        """The agent's live access tokens (never their secrets)"""
        return PersonalAccessToken.objects.filter(user=request.user, revoked_at=None).order_by("-created_at")


class AccessTokenDetailView(AgentAPIView):
    @operation(NO_CONTENT)
    def delete(self, request: AgentRequest, token_id: int) -> None:
        """Revoke one of the agent's access tokens"""
        token = PersonalAccessToken.objects.filter(pk=token_id, user=request.user, revoked_at=None).first()
        if token is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such access token.")
        services.access_token_revoke(token=token)
