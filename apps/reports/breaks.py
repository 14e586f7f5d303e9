"""Time on break: each agent's breaks as rows (AgentBreak), opened and closed on its status
changes (AgentStatusChanged, in the transaction of the change), and the seconds of them that
fall within a report's range (an open break counts up to now)."""

from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from apps.accounts.domain_events import AgentStatusChanged
from apps.accounts.models import AgentStatus
from apps.core.models import DomainEvent
from apps.reports.models import AgentBreak
from apps.reports.ranges import ReportRange


def record_break(event: AgentStatusChanged, recorded: DomainEvent | None = None) -> None:
    """Subscriber: "break" opens the agent's break (unless one is open: a repeated status), any
    other status closes it."""
    now = timezone.now()
    if event.status == AgentStatus.BREAK:
        # ON CONFLICT DO NOTHING on the one-open-break index: two racing changes open one.
        AgentBreak.objects.bulk_create(
            [AgentBreak(agent_id=event.agent_id, owner_id=event.agent_owner_id, started_at=now)],
            ignore_conflicts=True,
        )
    else:
        AgentBreak.objects.filter(agent_id=event.agent_id, ended_at__isnull=True).update(ended_at=now)


def break_seconds(report: ReportRange, now: datetime | None = None) -> dict[int, int]:
    """{agent id: whole seconds on break within the range} for the owner's agents that had any."""
    start, end = report.start, min(report.end, now or timezone.now())
    overlapping = AgentBreak.objects.filter(Q(ended_at__isnull=True) | Q(ended_at__gt=start), owner_id=report.owner_id)
    seconds: dict[int, float] = {}
    for agent_id, started_at, ended_at in overlapping.filter(started_at__lt=end).values_list(
        "agent_id", "started_at", "ended_at"
    ):
        overlap = (min(ended_at or end, end) - max(started_at, start)).total_seconds()
        if overlap > 0:
            seconds[agent_id] = seconds.get(agent_id, 0) + overlap
    return {agent_id: round(total) for agent_id, total in seconds.items()}
