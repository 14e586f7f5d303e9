"""Channel authorisation endpoints (pusher-js `authEndpoint`): POST /broadcasting/auth for agents
and owner panel users, POST /api/public/broadcasting/auth for kiosks. pusher-js posts
`socket_id` and `channel_name` form-encoded; JSON is accepted too. GET
/api/public/broadcasting/channels tells a kiosk its channel names (the pairing result, fixed by
the spec, has no owner id)."""

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import FormParser
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.actors import panel_member
from apps.accounts.api.authentication import MemberSessionAuthentication
from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import User
from apps.api.authentication import AgentSessionAuthentication
from apps.api.inputs import validated
from apps.api.parsers import JSONParser
from apps.api.schema import session_cookie_scheme
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.kiosks.models import Kiosk
from apps.realtime import protocol
from apps.realtime.channels import agent_channel, kiosk_channel, owner_channel
from apps.realtime_http import access
from apps.routing import services as routing_services


class PanelSessionAuthentication(MemberSessionAuthentication):
    """An owner panel user's Django session (panel_role, not an agent), with Django's CSRF check
    (the panel's pages carry the csrftoken)."""

    def is_member(self, user: User) -> bool:
        return panel_member(user)


class PanelSessionScheme(OpenApiAuthenticationExtension):
    target_class = "apps.realtime_http.auth.PanelSessionAuthentication"
    name = "panelSession"

    def get_security_definition(self, auto_schema: AutoSchema) -> dict[str, object]:
        return session_cookie_scheme("A signed-in owner panel user (owner or manager); writes carry X-CSRFToken.")


class ChannelAuthIn(serializers.Serializer[None]):
    socket_id = serializers.RegexField(r"^\d+\.\d+$", max_length=64)
    channel_name = serializers.CharField(max_length=protocol.MAX_CHANNEL_NAME)


ChannelAuthOut = inline_serializer(
    "ChannelAuthOut", {"auth": serializers.CharField(), "channel_data": serializers.CharField(required=False)}
)


def _signed(
    request: Request, *, user: User | None = None, kiosk: Kiosk | None = None
) -> tuple[str, access.ChannelAuthorization]:
    """The channel pusher-js asks for, and the signed answer for `user` or `kiosk` (403 if refused)."""
    data = validated(ChannelAuthIn, request.data)
    channel = data["channel_name"]
    return channel, access.channel_authorization(socket_id=data["socket_id"], channel=channel, user=user, kiosk=kiosk)


class BroadcastingAuthView(AgentAPIView):
    authentication_classes = [AgentSessionAuthentication, PanelSessionAuthentication]
    parser_classes = [FormParser, JSONParser]

    @extend_schema(request=ChannelAuthIn, responses={200: ChannelAuthOut}, summary="Sign a channel subscription")
    def post(self, request: AgentRequest) -> Response:
        channel, body = _signed(request, user=request.user)
        if channel == agent_channel(request.user.pk) and request.user.is_agent:
            routing_services.agent_polled(request.user)  # its dashboard is connecting: signed in now
        return Response(body)


class KioskBroadcastingAuthView(KioskAPIView):
    parser_classes = [FormParser, JSONParser]

    @extend_schema(request=ChannelAuthIn, responses={200: ChannelAuthOut}, summary="Sign a kiosk channel subscription")
    def post(self, request: KioskRequest) -> Response:
        _channel, body = _signed(request, kiosk=request.auth)
        return Response(body)


KioskChannelsOut = inline_serializer(
    "KioskChannelsOut",
    {
        "app_key": serializers.CharField(),
        "kiosk_channel": serializers.CharField(),
        "owner_channel": serializers.CharField(),
    },
)


class KioskChannelsView(KioskAPIView):
    @extend_schema(responses={200: KioskChannelsOut}, summary="The kiosk's real-time app key and channel names")
    def get(self, request: KioskRequest) -> Response:
        kiosk = request.auth
        return Response(
            {
                "app_key": settings.REALTIME_APP_KEY,
                "kiosk_channel": kiosk_channel(kiosk.pk),
                "owner_channel": owner_channel(kiosk.business.owner_id),
            }
        )
