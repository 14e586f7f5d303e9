"""Channels whose members change while a subscription's signature stays valid (a call's agent after
a transfer, everyone after the session's end): a subscription to one of them is let in only if
the signer is a member now, whatever the signature.

A channel signature is an HMAC over `socket_id:channel`: it never expires, and the same socket
gets the same one each time it is signed. So for these channels the auth endpoint signs who asked
too (channel_data `{"user_id": ...}`, the presence member id), and every subscription asks the
channel's rule, registered here by the realtime surface (apps/realtime_http/access.py, which may
read the domain: this module imports no domain app), whether that member is one now.

A revoking broadcast (hub.py) that arrives while a rule is being asked means the answer may
predate the change: it is asked again (the broadcast goes out after the change's commit).
"""

import json
from collections.abc import Callable

from channels.db import database_sync_to_async

from apps.realtime import protocol

Rule = Callable[[str, object], bool]  # (channel, member id) -> a member now; runs on a database thread

_rules: dict[str, Rule] = {}  # channel-name prefix -> its rule
_asking: dict[str, list[set[str]]] = {}  # channel -> the open checks' "revoked meanwhile" flags

MAX_ASKS = 3


def register(prefix: str, rule: Rule) -> None:
    _rules[prefix] = rule


def rule_for(channel: str) -> Rule | None:
    return next((rule for prefix, rule in _rules.items() if channel.startswith(prefix)), None)


def signer(channel_data: object) -> protocol.MemberId | None:
    """The member id the signature was made for (channel_data's user_id), or None."""
    if not isinstance(channel_data, str):
        return None
    try:
        parsed = json.loads(channel_data)
    except (ValueError, RecursionError):
        return None
    member = parsed.get("user_id") if isinstance(parsed, dict) else None
    return member if protocol.valid_member_id(member) else None


async def member_now(channel: str, channel_data: object) -> bool:
    """Whether a (validly signed) subscription to `channel` may stand now. True for a channel with
    no rule; False without the signer's id."""
    rule = rule_for(channel)
    if rule is None:
        return True
    member = signer(channel_data)
    if member is None:
        return False
    for _ in range(MAX_ASKS):
        revoked: set[str] = set()
        _asking.setdefault(channel, []).append(revoked)
        try:
            allowed: bool = await database_sync_to_async(rule)(channel, member)
        finally:
            flags = _asking[channel]
            flags.remove(revoked)
            if not flags:
                del _asking[channel]
        if not revoked:
            return allowed
    return False


def note_revoked(channels: list[str]) -> None:
    """Called by the hub for each revoking broadcast: the checks under way there ask again."""
    for channel in channels:
        for flags in _asking.get(channel, ()):
            flags.add(channel)
