"""The Pusher protocol (version 7) on the wire: codes, socket ids, channel names and frames.

Close and error codes follow Pusher's table, because pusher-js decides what to do from them:
4000-4099 do not reconnect, 4100-4199 reconnect after a back-off, 4200-4299 reconnect at once,
4300-4399 other errors (the connection stays open).
"""

import json
import re
import secrets
from collections.abc import Mapping
from enum import StrEnum
from typing import NotRequired, TypedDict, TypeGuard

PROTOCOL_VERSIONS = {5, 6, 7}

SSL_ONLY = 4000  # close: REQUIRE_TLS and the upgrade came over plain HTTP (pusher-js retries over wss)
UNKNOWN_APP = 4001  # close: the key in /app/{key} is not ours
OVER_CONNECTION_QUOTA = 4004  # close: this process holds its maximum of connections
UNSUPPORTED_PROTOCOL = 4007  # close
NO_PROTOCOL = 4008  # close: no ?protocol= in the URL
UNAUTHORIZED = 4009  # error: a subscription or client event the connection may not make
OVER_CAPACITY = 4100
RECONNECT = 4200  # close: the server is shutting down; reconnect (to another process) at once
PONG_NOT_RECEIVED = 4201  # close: the connection went silent
CLIENT_EVENT_RATE_LIMIT = 4301  # error: more than CLIENT_EVENTS_PER_SECOND client events
INVALID_MESSAGE = 4302  # error: unparseable frame or missing fields (ours, in Pusher's "other" range)
OVER_SUBSCRIPTION_LIMIT = 4303  # error: the connection holds REALTIME_MAX_SUBSCRIPTIONS_PER_CONNECTION (ours)

CLIENT_EVENTS_PER_SECOND = 10
MAX_CLIENT_EVENT_BYTES = 10 * 1024  # Pusher's limit on one event's data
MAX_CHANNEL_NAME = 164  # Pusher's

MEMBER_ADDED = "pusher_internal:member_added"
MEMBER_REMOVED = "pusher_internal:member_removed"
# Pusher's channel-name alphabet (Channels group names could not carry it; see hub.py).
# \Z, not $: "$" also matches before a final newline.
CHANNEL_NAME_RE = re.compile(r"^[A-Za-z0-9_\-=@,.;]+\Z")
SOCKET_ID_RE = re.compile(r"^[0-9]+\.[0-9]+\Z")


MemberId = str | int  # a presence member's user_id, with the JSON type it was signed with


class FanoutMessage(TypedDict):
    """One channel-layer message to every process: an event for some channels, or (the HTTP API's
    terminate_connections) a user whose connections close."""

    type: str
    channels: NotRequired[list[str]]
    event: NotRequired[str]
    data: NotRequired[object]  # a JSON value, or the JSON string the HTTP API was given
    skip: NotRequired[str | None]
    extra: NotRequired[Mapping[str, object] | None]
    revoke: NotRequired[bool]
    terminate_user: NotRequired[str]


def valid_member_id(value: object) -> TypeGuard[MemberId]:
    """A user_id as channel_data may carry it: a non-empty string or an integer (not a boolean)."""
    return (isinstance(value, str) and value != "") or (isinstance(value, int) and not isinstance(value, bool))


class ChannelKind(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"
    PRESENCE = "presence"


def new_socket_id() -> str:
    """`digits.digits`, as the official server libraries insist before they sign anything."""
    return f"{secrets.randbelow(10**9)}.{secrets.randbelow(10**9)}"


def valid_channel_name(name: object) -> bool:
    return isinstance(name, str) and 0 < len(name) <= MAX_CHANNEL_NAME and bool(CHANNEL_NAME_RE.match(name))


def channel_kind(name: str) -> ChannelKind:
    if name.startswith("presence-"):
        return ChannelKind.PRESENCE
    if name.startswith("private-"):
        return ChannelKind.PRIVATE
    return ChannelKind.PUBLIC


def frame(event: str, data: object, channel: str | None = None, **extra: object) -> str:
    """One protocol message. `data` travels as a JSON-encoded string, as Pusher sends it."""
    message: dict[str, object] = {"event": event}
    if channel is not None:
        message["channel"] = channel
    message["data"] = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
    message.update(extra)
    return json.dumps(message, separators=(",", ":"))


class FrameMaker:
    """The same event for many channels: the frame differs only in `channel`, so the data is
    encoded once (the fan-out to 500 agents writes 500 frames)."""

    def __init__(self, event: str, data: object, extra: Mapping[str, object] | None = None) -> None:
        data_string = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"))
        self._head = '{"event":' + json.dumps(event) + ',"channel":'
        tail = ',"data":' + json.dumps(data_string)
        for key, value in (extra or {}).items():
            tail += "," + json.dumps(key) + ":" + json.dumps(value, separators=(",", ":"))
        self._tail = tail + "}"

    def for_channel(self, channel: str) -> str:
        return self._head + json.dumps(channel) + self._tail


def error_frame(code: int | None, message: str) -> str:
    return frame("pusher:error", {"code": code, "message": message})


def subscription_error_frame(channel: str, error: str, status: int) -> str:
    """What Echo's `.error()` listens for: the refused channel, with Pusher's AuthError shape."""
    return frame("pusher:subscription_error", {"type": "AuthError", "error": error, "status": status}, channel)
