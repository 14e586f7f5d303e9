"""The Pusher HTTP API's read side and terminate_connections, signed as the trigger API is:
GET /apps/{app_id}/channels, /channels/{name} and /channels/{name}/users, and
POST /apps/{app_id}/users/{user_id}/terminate_connections.

The reads answer from the state every web process shares (presence.py), never from this
process's memory alone; terminate_connections reaches every process through the channel layer."""

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TypeVar

from asgiref.sync import async_to_sync
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.core.errors import DomainError, ErrorCode
from apps.realtime import protocol
from apps.realtime.broadcast import send, server_loop
from apps.realtime.fanout import terminate_message
from apps.realtime.presence import presence_store
from apps.realtime_http.http_api import EMPTY_OBJECT, SignedHttpApiView

logger = logging.getLogger(__name__)

READ_TIMEOUT_SECONDS = 5.0
CHANNELS_INFO = ("user_count",)
CHANNEL_INFO = ("user_count", "subscription_count")

T = TypeVar("T")


def _on_server_loop(make_coroutine: Callable[[], Coroutine[object, object, T]]) -> T:
    """Run `make_coroutine()` where the shared state lives: the loop of this process's WebSockets
    (the embedded mode keeps it in that loop's memory), else through async_to_sync. A failure
    (Redis down) is a 503, not a wrong answer."""
    loop = server_loop()
    try:
        if loop is not None:
            return asyncio.run_coroutine_threadsafe(make_coroutine(), loop).result(READ_TIMEOUT_SECONDS)
        return async_to_sync(make_coroutine)()
    except Exception:
        logger.warning("the real-time state could not be read", exc_info=True)
        raise DomainError(ErrorCode.SERVICE_UNAVAILABLE, "The real-time state is unavailable. Retry shortly.") from None


def _bad_request(message: str) -> DomainError:
    return DomainError(ErrorCode.MALFORMED_REQUEST, message)


def _info_attributes(request: Request, allowed: tuple[str, ...]) -> set[str]:
    wanted = {name for name in request.query_params.get("info", "").split(",") if name}
    unknown = wanted - set(allowed)
    if unknown:
        raise _bad_request(f"Unknown info attributes {sorted(unknown)}; this endpoint offers {list(allowed)}.")
    return wanted


def _presence_channel(name: str, what: str) -> None:
    if protocol.channel_kind(name) != protocol.ChannelKind.PRESENCE:
        raise _bad_request(f"{what} is only available for presence channels.")


def _channel_name(name: str) -> str:
    if not protocol.valid_channel_name(name):
        raise _bad_request("Invalid channel name.")
    return name


# The answers, for the schema: the views build them as plain dicts.
PusherChannelsOut = inline_serializer(
    "PusherChannelsOut",
    {
        "channels": serializers.DictField(
            child=inline_serializer(
                "PusherChannelsItem",
                {"user_count": serializers.IntegerField(required=False, help_text="With `info=user_count`.")},
            ),
            help_text="Occupied channel name -> its attributes (`{}` without `info`).",
        )
    },
)
PusherChannelOut = inline_serializer(
    "PusherChannelOut",
    {
        "occupied": serializers.BooleanField(),
        "user_count": serializers.IntegerField(required=False, help_text="With `info=user_count` (presence only)."),
        "subscription_count": serializers.IntegerField(required=False, help_text="With `info=subscription_count`."),
    },
)
PusherChannelUsersOut = inline_serializer(
    "PusherChannelUsersOut",
    {"users": inline_serializer("PusherChannelUser", {"id": serializers.CharField()}, many=True)},
)


def _info_parameter(allowed: tuple[str, ...]) -> OpenApiParameter:
    return OpenApiParameter("info", str, description=f"Comma-separated attributes to add, of: {', '.join(allowed)}.")


class ChannelsView(SignedHttpApiView):
    """Occupied channels, optionally those starting with `filter_by_prefix`; `info=user_count`
    only together with a presence- prefix (as Pusher: the count means nothing elsewhere)."""

    @extend_schema(
        operation_id="apps_channels_list",  # the default collides with ChannelView's
        parameters=[
            OpenApiParameter("filter_by_prefix", str, description="Only channels starting with this prefix."),
            _info_parameter(CHANNELS_INFO),
        ],
        responses={200: PusherChannelsOut},
        summary="List the occupied channels (Pusher HTTP API)",
        description="`info=user_count` needs `filter_by_prefix=presence-`.",
    )
    def get(self, request: Request, app_id: str) -> Response:
        prefix = request.query_params.get("filter_by_prefix", "")
        info = _info_attributes(request, CHANNELS_INFO)
        if "user_count" in info:
            _presence_channel(prefix, "user_count (with filter_by_prefix=presence-)")

        async def read() -> dict[str, dict[str, int]]:
            store = presence_store()
            occupied = sorted(await store.subscription_counts(prefix))
            user_counts = await store.user_counts(occupied) if "user_count" in info else {}
            return {channel: {"user_count": user_counts[channel]} if info else {} for channel in occupied}

        return Response({"channels": _on_server_loop(read)})


class ChannelView(SignedHttpApiView):
    @extend_schema(
        operation_id="apps_channels_retrieve",
        parameters=[_info_parameter(CHANNEL_INFO)],
        responses={200: PusherChannelOut},
        summary="Describe one channel (Pusher HTTP API)",
        description="`info=user_count` is for presence channels only.",
    )
    def get(self, request: Request, app_id: str, channel: str) -> Response:
        _channel_name(channel)
        info = _info_attributes(request, CHANNEL_INFO)
        if "user_count" in info:
            _presence_channel(channel, "user_count")

        async def read() -> dict[str, bool | int]:
            store = presence_store()
            subscriptions = await store.subscription_count(channel)
            body: dict[str, bool | int] = {"occupied": subscriptions > 0}
            if "user_count" in info:
                body["user_count"] = (await store.user_counts([channel]))[channel]
            if "subscription_count" in info:
                body["subscription_count"] = subscriptions
            return body

        return Response(_on_server_loop(read))


class ChannelUsersView(SignedHttpApiView):
    @extend_schema(
        responses={200: PusherChannelUsersOut},
        summary="List a presence channel's users (Pusher HTTP API)",
        description="Presence channels only; any other channel is a 400.",
    )
    def get(self, request: Request, app_id: str, channel: str) -> Response:
        _channel_name(channel)
        _presence_channel(channel, "The user list")

        async def read() -> dict[str, list[dict[str, str]]]:
            # Pusher's HTTP API lists ids as strings (the socket protocol echoes them as signed).
            user_ids = sorted({str(user_id) for user_id in await presence_store().user_ids(channel)})
            return {"users": [{"id": user_id} for user_id in user_ids]}

        return Response(_on_server_loop(read))


class TerminateUserConnectionsView(SignedHttpApiView):
    """Closes (4009) every connection, on every web process, that joined a presence channel as
    `user_id`. Also routed without /apps/{app_id}: pusher-http-python 3.3 posts there."""

    @extend_schema(
        request={"application/json": {"type": "object", "description": "Ignored; Pusher's libraries send `{}`."}},
        responses={200: EMPTY_OBJECT},
        summary="Disconnect a user's connections (Pusher HTTP API)",
        description="Closes (4009) every connection that joined a presence channel as `user_id`.",
    )
    def post(self, request: Request, user_id: str, app_id: str | None = None) -> Response:
        if not protocol.valid_channel_name(user_id):  # Pusher's user ids share the channel alphabet
            raise _bad_request("Invalid user id.")
        self.body_json(request)  # a malformed body is still a 400

        async def hand_over() -> None:
            await send(terminate_message(user_id))

        _on_server_loop(hand_over)
        return Response({})
