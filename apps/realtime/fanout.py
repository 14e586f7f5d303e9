"""The one message a broadcast sends through the channel layer to every web process (hub.py
says why one), and the group that carries it. A module of its own, below the hub, the
broadcast API and the presence stores, which all build these messages."""

from collections.abc import Mapping
from typing import Protocol

from channels.layers import get_channel_layer

from apps.realtime.protocol import FanoutMessage

FANOUT_GROUP = "pusher.fanout"
MESSAGE_TYPE = "pusher.fanout"


class ChannelLayer(Protocol):
    """The part of a Channels layer the hub and broadcast use (channels ships no type information)."""

    async def new_channel(self, prefix: str = ...) -> str: ...
    async def receive(self, channel: str) -> FanoutMessage: ...
    async def group_add(self, group: str, channel: str) -> None: ...
    async def group_discard(self, group: str, channel: str) -> None: ...
    async def group_send(self, group: str, message: FanoutMessage) -> None: ...


def channel_layer() -> ChannelLayer | None:
    """The configured layer (None: none configured). channels ships no type information: its
    answer is given the type of the part used here."""
    layer: ChannelLayer | None = get_channel_layer()
    return layer


def fanout_message(
    channels: list[str],
    event: str,
    data: object,
    *,
    skip: str | None = None,
    extra: Mapping[str, object] | None = None,
    revoke: bool = False,
) -> FanoutMessage:
    """What travels through the layer: the event once, and where it goes. `skip` is the socket id
    that caused it (it does not get its own event back). `revoke`: after the event, every
    connection on the channels loses its subscription (broadcast.broadcast says why)."""
    message: FanoutMessage = {
        "type": MESSAGE_TYPE,
        "channels": channels,
        "event": event,
        "data": data,
        "skip": skip,
        "extra": extra,
    }
    if revoke:
        message["revoke"] = True
    return message


def terminate_message(user_id: str) -> FanoutMessage:
    """The HTTP API's terminate_connections, to every process: close that user's connections."""
    return {"type": MESSAGE_TYPE, "terminate_user": user_id}
