"""Who counts as signed in (docs/kiosk-and-agent.md "Presence"): an agent whose dashboard holds
its private real-time channel now, or that was seen within AGENT_SIGNED_IN_SECONDS (`last_seen_at`:
an incoming poll, a channel authorisation, its own status change, or the routing tick having
seen its channel held). Both halves are read at once, so an agent connected over WebSocket is
signed in even where no tick runs."""

import asyncio
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q

from apps.realtime.broadcast import server_loop
from apps.realtime.channels import agent_channel
from apps.realtime.subscriptions import subscribed_channels


def signed_in_cutoff(now: datetime) -> datetime:
    """Agents seen at or after this count as signed in."""
    return now - timedelta(seconds=settings.AGENT_SIGNED_IN_SECONDS)


def agents_holding_channel() -> set[int] | None:
    """The agents whose private channel some connection holds (None: unknown just now, or asked
    from the server's own event loop, which must not block on itself)."""
    loop = server_loop()
    if loop is not None:
        try:
            if asyncio.get_running_loop() is loop:
                return None
        except RuntimeError:
            pass  # a thread with no loop: the usual case
    channels = subscribed_channels(agent_channel.prefix)
    if channels is None:
        return None
    keys = (agent_channel.key(channel) for channel in channels)
    return {int(key) for key in keys if key is not None and key.isdigit()}


def signed_in(now: datetime, holding: set[int] | None) -> Q:
    """A filter of users: the agents signed in at `now` (`holding`: agents_holding_channel())."""
    recent = Q(last_seen_at__gte=signed_in_cutoff(now))
    return recent | Q(pk__in=holding) if holding else recent
