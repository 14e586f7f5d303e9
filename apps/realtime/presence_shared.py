"""What both presence stores (presence.py in memory, presence_redis.py in Redis) share: the change a
join or leave makes, the lease, grace and heartbeat times, and the member_removed a lapsed member
gets. A module of its own, below both, so that presence.py can choose the store without the two
importing each other."""

from dataclasses import dataclass, field

from django.conf import settings

from apps.realtime import protocol
from apps.realtime.broadcast import send
from apps.realtime.fanout import fanout_message
from apps.realtime.protocol import MemberId


@dataclass
class Change:
    added: bool = False  # this join was the user's first connection
    gone: list[MemberId] = field(default_factory=list)  # users whose last connection left
    members: dict[MemberId, object] = field(default_factory=dict)  # user id (as signed) -> user_info


def lease_seconds() -> float:
    """How long a process's presence entries outlive its last heartbeat."""
    return settings.REALTIME_PROCESS_LEASE_SECONDS


def grace_seconds() -> float:
    """A member whose last connection leaves stays listed this long (REALTIME_PRESENCE_GRACE_SECONDS,
    as Pusher delays its vacate webhooks): a kiosk that reconnects meanwhile (to another process,
    during a deploy's drain) was never gone, so the owner's list does not drop and come back.
    0: gone at once."""
    return settings.REALTIME_PRESENCE_GRACE_SECONDS


async def announce_gone(channel: str, user_id: MemberId) -> None:
    """member_removed for a member whose grace ran out, to every process's listeners."""
    await send(fanout_message([channel], protocol.MEMBER_REMOVED, {"user_id": user_id}))


def heartbeat_seconds() -> float:
    """Leases are renewed, and expired ones swept, this often: a SIGKILLed process's members are
    gone from every list, with `member_removed` sent, at most lease + heartbeat after the kill."""
    return lease_seconds() / 3
