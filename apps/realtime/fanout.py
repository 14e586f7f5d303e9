"""The one message a broadcast sends through the channel layer to every web process (hub.py
says why one), and the group that carries it. A module of its own, below the hub, the
broadcast API and the presence stores, which all build these messages."""

from typing import Any

FANOUT_GROUP = "pusher.fanout"
MESSAGE_TYPE = "pusher.fanout"


def fanout_message(
    channels: list[str],
    event: str,
    data: object,
    *,
    skip: str | None = None,
    extra: object = None,
    revoke: bool = False,
) -> dict[str, Any]:
    """What travels through the layer: the event once, and where it goes. `skip` is the socket id
    that caused it (it does not get its own event back). `revoke`: after the event, every
    connection on the channels loses its subscription (broadcast.broadcast says why)."""
    message: dict[str, Any] = {
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


def terminate_message(user_id: str) -> dict[str, Any]:
    """The HTTP API's terminate_connections, to every process: close that user's connections."""
    return {"type": MESSAGE_TYPE, "terminate_user": user_id}
