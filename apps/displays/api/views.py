"""The screens' API (docs/kiosk-and-agent.md "Displays"), mounted at /api/displays/: who this
screen is, the kitchen's tickets and their moves, the board's numbers, and the signature of the
screen's private channel."""

from collections.abc import Callable

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.parsers import FormParser
from rest_framework.response import Response
from rest_framework.views import APIView

from apps.api.inputs import validated
from apps.api.parsers import JSONParser
from apps.api.views import MethodCheckedFirst
from apps.core.errors import DomainError, ErrorCode
from apps.displays import selectors, services
from apps.displays.api.auth import (
    DisplayRequest,
    DisplaySessionAuthentication,
    DisplayThrottle,
    DisplayTokenAuthentication,
    IsDisplay,
)
from apps.displays.bodies import (
    BoardNumberOut,
    PrinterAlertOut,
    TicketOut,
    board_number_body,
    printer_alerts,
    ticket_body,
)
from apps.displays.models import DisplayKind
from apps.orders.fulfilment import FULFILMENT_STATUSES
from apps.realtime.channels import board_channel, kitchen_channel
from apps.realtime.signing import channel_auth

BUSINESS_PARAM = OpenApiParameter(
    "business", str, description="A signed-in user's business id (default: the owner's first); ignored for a token."
)


class DisplayAPIView(MethodCheckedFirst, APIView):
    authentication_classes = [DisplayTokenAuthentication, DisplaySessionAuthentication]
    permission_classes = [IsDisplay]
    throttle_classes = [DisplayThrottle]

    def viewer(self, request: DisplayRequest) -> services.Viewer:
        if request.auth is not None:
            return request.auth
        return services.viewer_for_user(request.user, request.query_params.get("business"))


def _channels(viewer: services.Viewer) -> dict[str, str]:
    names: dict[str, Callable[[int], str]] = {DisplayKind.KITCHEN: kitchen_channel, DisplayKind.BOARD: board_channel}
    return {kind: names[kind](viewer.business.pk) for kind in sorted(viewer.kinds)}


DisplayMeOut = inline_serializer(
    "DisplayMeOut",
    {
        "business": inline_serializer(
            "DisplayBusinessOut", {"id": serializers.CharField(), "name": serializers.CharField()}
        ),
        "screens": serializers.ListField(child=serializers.CharField()),
        "app_key": serializers.CharField(),
        "channels": serializers.DictField(child=serializers.CharField()),
        "settings": serializers.DictField(child=serializers.FloatField()),
    },
)


class DisplayMeView(DisplayAPIView):
    @extend_schema(
        parameters=[BUSINESS_PARAM], responses={200: DisplayMeOut}, summary="This screen: business, channels, timings"
    )
    def get(self, request: DisplayRequest) -> Response:
        viewer = self.viewer(request)
        return Response(
            {
                "business": {"id": str(viewer.business.pk), "name": viewer.business.name},
                "screens": sorted(viewer.kinds),
                "app_key": settings.REALTIME_APP_KEY,
                "channels": _channels(viewer),
                "settings": {
                    "poll_seconds": settings.DISPLAY_POLL_SECONDS,
                    "ticket_warn_seconds": settings.KITCHEN_TICKET_WARN_SECONDS,
                    "ticket_late_seconds": settings.KITCHEN_TICKET_LATE_SECONDS,
                    "print_late_seconds": settings.PRINT_TICKET_LATE_SECONDS,
                    "ready_highlight_seconds": settings.BOARD_READY_HIGHLIGHT_SECONDS,
                    "ready_seconds": float(viewer.ready_seconds),
                },
            }
        )


TicketsOut = inline_serializer(
    "KitchenTicketsOut",
    {
        "tickets": TicketOut(many=True),
        "truncated": serializers.BooleanField(),
        "printers": PrinterAlertOut(many=True, help_text="Printers that cannot print, or hold a ticket too long."),
    },
)


class KitchenTicketsView(DisplayAPIView):
    @extend_schema(parameters=[BUSINESS_PARAM], responses={200: TicketsOut}, summary="The kitchen's open tickets")
    def get(self, request: DisplayRequest) -> Response:
        viewer = self.viewer(request)
        viewer.ensure(DisplayKind.KITCHEN)
        orders, truncated = selectors.kitchen_tickets(viewer.business.pk)
        return Response(
            {
                "tickets": [ticket_body(order) for order in orders],
                "truncated": truncated,
                "printers": printer_alerts(viewer.business.pk),
            }
        )


class TicketMoveIn(serializers.Serializer[None]):
    status = serializers.ChoiceField(choices=list(FULFILMENT_STATUSES))


class KitchenTicketMoveView(DisplayAPIView):
    @extend_schema(
        parameters=[BUSINESS_PARAM],
        request=TicketMoveIn,
        responses={200: TicketOut},
        summary="Move a ticket: preparing, ready or completed",
    )
    def post(self, request: DisplayRequest, order_id: str) -> Response:
        data = validated(TicketMoveIn, request.data)
        order = services.ticket_move(viewer=self.viewer(request), order_id=order_id, status=data["status"])
        return Response(ticket_body(order))


class KitchenTicketReprintView(DisplayAPIView):
    @extend_schema(
        parameters=[BUSINESS_PARAM],
        request=None,
        responses={202: inline_serializer("KitchenReprintOut", {"reprinted": serializers.IntegerField()})},
        summary="Print a ticket again on the printers that printed it, marked REPRINT",
        description="409 INVALID_STATE when no printer has printed it yet; 404 for another business's order.",
    )
    def post(self, request: DisplayRequest, order_id: str) -> Response:
        count = services.ticket_reprint(viewer=self.viewer(request), order_id=order_id)
        return Response({"reprinted": count}, status=202)


BoardOut = inline_serializer(
    "BoardOut",
    {
        "preparing": BoardNumberOut(many=True),
        "ready": BoardNumberOut(many=True),
        "truncated": serializers.BooleanField(),
    },
)


class BoardView(DisplayAPIView):
    @extend_schema(parameters=[BUSINESS_PARAM], responses={200: BoardOut}, summary="The board's numbers")
    def get(self, request: DisplayRequest) -> Response:
        viewer = self.viewer(request)
        viewer.ensure(DisplayKind.BOARD)
        orders, truncated = selectors.board_orders(viewer.business.pk, viewer.ready_seconds)
        numbers = [board_number_body(order) for order in orders]
        return Response(
            {
                "preparing": [n for n in numbers if n["status"] == "preparing"],
                "ready": [n for n in numbers if n["status"] == "ready"],
                "truncated": truncated,
            }
        )


class DisplayChannelAuthIn(serializers.Serializer[None]):
    socket_id = serializers.RegexField(r"^\d+\.\d+$", max_length=64)
    channel_name = serializers.CharField(max_length=200)


ChannelAuthOut = inline_serializer("DisplayChannelAuthOut", {"auth": serializers.CharField()})


class DisplayBroadcastingAuthView(DisplayAPIView):
    """pusher-js's channel authorisation for a screen: only its own business's channels."""

    parser_classes = [FormParser, JSONParser]

    @extend_schema(
        parameters=[BUSINESS_PARAM],
        request=DisplayChannelAuthIn,
        responses={200: ChannelAuthOut},
        summary="Sign a screen's channel subscription",
    )
    def post(self, request: DisplayRequest) -> Response:
        data = validated(DisplayChannelAuthIn, request.data)
        if data["channel_name"] not in _channels(self.viewer(request)).values():
            raise DomainError(
                ErrorCode.FORBIDDEN,
                "You may not subscribe to {channel_name}.",
                params={"channel_name": data["channel_name"]},
            )
        return Response({"auth": channel_auth(data["socket_id"], data["channel_name"])})
