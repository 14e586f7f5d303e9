"""The session chat on both surfaces: GET and POST /api/public/sessions/{id}/chat (the kiosk) and
/api/sessions/{id}/chat (the session's current agent; one who handed it over still reads it).
Thin: apps.chat.services decides."""

from django.http import QueryDict
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.api.inputs import validated
from apps.chat import services
from apps.chat.api.serializers import ChatMessageIn, ChatPageIn, ChatPageOut
from apps.chat.bodies import ChatMessageBody, message_body
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.sessions.models import Session


def page_response(session: Session, query: QueryDict) -> Response:
    page = validated(ChatPageIn, query)
    rows, has_more = services.messages(session, after=page["after"], limit=page["limit"])
    return Response({"messages": [message_body(row) for row in rows], "has_more": has_more})


class KioskChatView(KioskAPIView):
    @extend_schema(
        parameters=[ChatPageIn], responses={200: ChatPageOut}, summary="This kiosk's session chat, oldest first"
    )
    def get(self, request: KioskRequest, public_id: str) -> Response:
        return page_response(services.session_for_kiosk(request.auth, public_id), request.query_params)

    @extend_schema(request=ChatMessageIn, responses={201: ChatMessageBody}, summary="Write to the agent (session live)")
    def post(self, request: KioskRequest, public_id: str) -> Response:
        data = validated(ChatMessageIn, request.data)
        message = services.post(text=data["text"], kiosk=request.auth, public_id=public_id)
        return Response(message_body(message), status=201)


class AgentChatView(AgentAPIView):
    @extend_schema(
        parameters=[ChatPageIn],
        responses={200: ChatPageOut},
        summary="The chat of a session this agent serves or served (read-only after a hand-over)",
    )
    def get(self, request: AgentRequest, public_id: str) -> Response:
        return page_response(services.session_readable_by_agent(request.user, public_id), request.query_params)

    @extend_schema(
        request=ChatMessageIn, responses={201: ChatMessageBody}, summary="Write to the customer (session live)"
    )
    def post(self, request: AgentRequest, public_id: str) -> Response:
        data = validated(ChatMessageIn, request.data)
        message = services.post(text=data["text"], agent=request.user, public_id=public_id)
        return Response(message_body(message), status=201)
