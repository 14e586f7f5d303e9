"""Whether an agent is signed in: its dashboard holds its private real-time channel, or it
polled the incoming list within AGENT_SIGNED_IN_SECONDS. Both end up in `last_seen_at`, which
is all the router reads: the routing tick marks every agent whose channel is held as seen now,
and the incoming poll marks its caller. An agent gone for more than AGENT_GONE_SECONDS (and not
serving a customer) is set offline; one that comes back within that time finds nothing changed."""

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.accounts import services as account_services
from apps.accounts.models import AgentStatus, StatusReason, User
from apps.routing.routing_settings import routing_for_owner
from apps.routing.signed_in import agents_holding_channel, signed_in_cutoff


def agents_mark_seen(*, agent_ids: Iterable[int], now: datetime) -> int:
    """Agents seen now. Returns how many of them were not signed in before (the caller has the
    router offer them the oldest session they can take: services.agent_polled, or the tick)."""
    agent_ids = list(agent_ids)
    if not agent_ids:
        return 0
    agents = User.objects.filter(pk__in=agent_ids, is_agent=True)
    with transaction.atomic():
        newly = agents.filter(Q(last_seen_at__lt=signed_in_cutoff(now)) | Q(last_seen_at__isnull=True)).count()
        agents.update(last_seen_at=now)
    return newly


def agent_signed_in(agent: User) -> None:
    """The agent signed in to the dashboard (password, or password and code): an offline agent
    becomes available, or on break where its owner's routing settings say agents start on break
    (docs/decisions/agent-dashboard.md "Sign-in status"); the router offers it a waiting customer at once."""
    start = AgentStatus.BREAK if routing_for_owner(agent.owner_id).agents_start_on_break else AgentStatus.AVAILABLE
    account_services.agent_signed_in_status(agent=agent, start=start)


def agents_set_gone_offline(*, now: datetime) -> list[int]:
    """Available or on-break agents unseen for AGENT_GONE_SECONDS are set offline (told why);
    an agent serving a customer keeps its session, which ends the usual ways."""
    cutoff = now - timedelta(seconds=settings.AGENT_GONE_SECONDS)
    gone = User.objects.filter(
        Q(last_seen_at__lt=cutoff) | Q(last_seen_at__isnull=True),
        is_agent=True,
        agent_status__in=(AgentStatus.AVAILABLE, AgentStatus.BREAK),
    ).values_list("pk", flat=True)
    ids = list(gone)
    if not ids:
        return []
    with transaction.atomic():
        return account_services.agents_set_status_by_server(
            agent_ids=ids,
            only_from=(AgentStatus.AVAILABLE, AgentStatus.BREAK),
            status=AgentStatus.OFFLINE,
            reason=StatusReason.GONE,
        )


def presence_tick(*, now: datetime | None = None) -> None:
    """The routing tick's presence step."""
    now = now or timezone.now()
    holding = agents_holding_channel()
    if holding:
        agents_mark_seen(agent_ids=holding, now=now)
    if holding is not None:  # with the real-time state unreadable, nobody is declared gone
        agents_set_gone_offline(now=now)
