"""Agent API for sessions: the incoming list, accept, end."""

from django.utils import timezone
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.inputs import validated
from apps.api.views import AgentAPIView
from apps.sessions import selectors, services
from apps.sessions.models import Session
from apps.sessions.state_machine import AGENT_END_REASONS


class IdName(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()


class KioskBrief(IdName):
    location = serializers.CharField()


class IncomingSessionOut(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    kiosk = KioskBrief()
    business = IdName()
    created_at = serializers.DateTimeField()
    waiting_seconds = serializers.SerializerMethodField()

    def get_waiting_seconds(self, session: Session) -> int:
        return max(0, int((self.context["now"] - session.created_at).total_seconds()))


class AcceptedSessionOut(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    video_channel = serializers.CharField(source="public_id")
    kiosk = IdName()
    business = IdName()


class EndIn(serializers.Serializer):
    reason = serializers.ChoiceField(choices=[str(reason) for reason in AGENT_END_REASONS])
    notes = serializers.CharField(max_length=2000, required=False, allow_blank=True, default="")


class EndedSessionOut(serializers.Serializer):
    id = serializers.CharField(source="public_id")
    status = serializers.CharField()
    ended_at = serializers.DateTimeField()
    duration_seconds = serializers.IntegerField()


class IncomingView(AgentAPIView):
    @extend_schema(
        responses={200: inline_serializer("IncomingOut", {"sessions": IncomingSessionOut(many=True)})},
        summary="Pending sessions this agent may accept, oldest first",
    )
    def get(self, request):
        sessions = selectors.incoming_sessions_for_agent(request.user)
        data = IncomingSessionOut(sessions, many=True, context={"now": timezone.now()}).data
        return Response({"sessions": data})


class AcceptView(AgentAPIView):
    @extend_schema(
        request=None,
        responses={200: inline_serializer("AcceptOut", {"session": AcceptedSessionOut()})},
        summary="Accept a pending session (first caller wins; others get 409)",
    )
    def post(self, request, public_id: str):
        session = services.session_accept(public_id=public_id, agent=request.user)
        return Response({"session": AcceptedSessionOut(session).data})


class EndView(AgentAPIView):
    @extend_schema(
        request=EndIn,
        responses={200: inline_serializer("EndOut", {"session": EndedSessionOut()})},
        summary="End a session (only the accepting agent)",
    )
    def post(self, request, public_id: str):
        data = validated(EndIn, request.data)
        session = services.session_end(
            public_id=public_id, agent=request.user, reason=data["reason"], notes=data["notes"]
        )
        return Response({"session": EndedSessionOut(session).data})
