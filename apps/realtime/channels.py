"""The names of the private and presence channels the service broadcasts on (docs/realtime.md).
Who may join each is decided by the channel rule of the realtime surface (apps/realtime_http/access.py).

Each kind of channel is one prefix, named here once: its broadcasters build names with it
(`kiosk_channel(kiosk.pk)`) and the channel rules recognise names by it (`call_channel.key(name)`)."""

from dataclasses import dataclass
from typing import Generic, TypeVar

KeyT = TypeVar("KeyT", int, str)


@dataclass(frozen=True)
class ChannelKind(Generic[KeyT]):
    """The channels of one kind: `prefix` followed by a key (a row's id, a session's public id)."""

    prefix: str

    def __call__(self, key: KeyT) -> str:
        return f"{self.prefix}{key}"

    def key(self, channel: str) -> str | None:
        """The key of a channel of this kind (as text), or None for a channel of another kind."""
        return channel.removeprefix(self.prefix) if channel.startswith(self.prefix) else None


agent_channel: ChannelKind[int] = ChannelKind("private-agent.")
kiosk_channel: ChannelKind[int] = ChannelKind("private-kiosk.")
owner_channel: ChannelKind[int] = ChannelKind("presence-owner.")
kitchen_channel: ChannelKind[int] = ChannelKind("private-kitchen.")
board_channel: ChannelKind[int] = ChannelKind("private-board.")
# One session's call, by its public id: WebRTC signalling (client events) and its chat messages.
call_channel: ChannelKind[str] = ChannelKind("private-call.")
