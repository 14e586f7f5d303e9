"""Agents' load within a report's range: how long each of the owner's agents was signed in (its
AgentSignedIn rows), how many sessions it held at once on average over that time, the sessions it
answered per signed-in hour, and its time in a video conversation against its time serving at all
(docs/reports.md "Agents' load").

Time-based, like time on break: every figure is the part of a stretch that falls within the
range (an open one counts up to now), not tied to the sessions started in the range. A session is
held from its agent's Assignment row's start to its end; a video session is a video conversation
from that start until the order's first payment attempt after it (the session went to payment)
or the end."""

from bisect import bisect_right
from datetime import datetime
from typing import TypedDict

from django.db.models import Q
from django.utils import timezone

from apps.accounts.domain_events import AgentStatusChanged
from apps.accounts.models import AgentStatus
from apps.billing.models import Payment
from apps.core.models import DomainEvent
from apps.reports.definitions import KeyBody
from apps.reports.keys import key_bodies
from apps.reports.models import AgentSignedIn
from apps.reports.ranges import ReportRange
from apps.sessions.models import Assignment, AssignmentVia, Medium

Span = tuple[datetime, datetime]


class AgentLoadRow(TypedDict):
    agent: KeyBody
    signed_in_seconds: int
    sessions_answered: int
    sessions_per_hour: float | None
    sessions_held_avg: float | None
    serving_seconds: int
    video_seconds: int
    video_share: float | None


def record_signed_in(event: AgentStatusChanged, recorded: DomainEvent | None = None) -> None:
    """Subscriber: any status but "offline" opens the agent's signed-in stretch (unless one is
    open), "offline" closes it."""
    now = timezone.now()
    if event.status == AgentStatus.OFFLINE:
        AgentSignedIn.objects.filter(agent_id=event.agent_id, ended_at__isnull=True).update(ended_at=now)
    else:
        # ON CONFLICT DO NOTHING on the one-open index: two racing changes open one.
        AgentSignedIn.objects.bulk_create(
            [AgentSignedIn(agent_id=event.agent_id, owner_id=event.agent_owner_id, started_at=now)],
            ignore_conflicts=True,
        )


def agent_load(report: ReportRange, now: datetime | None = None) -> list[AgentLoadRow]:
    """One row per agent of the owner signed in or serving within the range, by name."""
    start, end = report.start, min(report.end, now or timezone.now())
    signed_in: dict[int, list[Span]] = {}
    spans = AgentSignedIn.objects.filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=start), owner_id=report.owner_id, started_at__lt=end
    )
    for agent_id, started, ended in spans.values_list("agent_id", "started_at", "ended_at"):
        signed_in.setdefault(agent_id, []).append(_clip((started, ended or end), start, end))
    held = Assignment.objects.filter(
        Q(ended_at__isnull=True) | Q(ended_at__gt=start), agent__owner_id=report.owner_id, started_at__lt=end
    )
    if report.business_id is not None:
        held = held.filter(session__business_id=report.business_id)
    rows = list(held.values_list("agent_id", "session_id", "via", "started_at", "ended_at", "session__medium"))
    payments = _payment_times([session_id for _, session_id, *_ in rows])
    serving: dict[int, list[Span]] = {}
    video: dict[int, list[Span]] = {}
    answered: dict[int, int] = {}
    for agent_id, session_id, via, started, ended, medium in rows:
        span = (started, ended or end)
        serving.setdefault(agent_id, []).append(_clip(span, start, end))
        if medium == Medium.VIDEO:
            paid = payments.get(session_id, [])
            after = bisect_right(paid, started)
            until = min(span[1], paid[after]) if after < len(paid) else span[1]
            video.setdefault(agent_id, []).append(_clip((started, until), start, end))
        if via == AssignmentVia.ACCEPT and start <= started < end:
            answered[agent_id] = answered.get(agent_id, 0) + 1
    agents = sorted(set(signed_in) | set(serving))
    names = key_bodies("agent", agents)
    out = [
        _row(
            names[agent_id],
            signed_in.get(agent_id, []),
            serving.get(agent_id, []),
            video.get(agent_id, []),
            answered.get(agent_id, 0),
        )
        for agent_id in agents
    ]
    return sorted(out, key=lambda row: (row["agent"]["name"], row["agent"]["id"]))


def _row(
    agent: KeyBody, signed_in_spans: list[Span], serving: list[Span], video: list[Span], answered: int
) -> AgentLoadRow:
    signed_in = _union(signed_in_spans)
    # Held while signed in: a session held outside every signed-in stretch (history without
    # stretches, a stretch cut by the range) must not make the average exceed what was possible.
    held = sum(_union([_clip(span, *stretch) for stretch in signed_in_spans]) for span in serving)
    any_held, in_video = _union(serving), _union(video)
    return {
        "agent": agent,
        "signed_in_seconds": round(signed_in),
        "sessions_answered": answered,
        "sessions_per_hour": round(answered / (signed_in / 3600), 2) if signed_in else None,
        "sessions_held_avg": round(held / signed_in, 2) if signed_in else None,
        "serving_seconds": round(any_held),
        "video_seconds": round(in_video),
        "video_share": round(in_video / any_held, 4) if any_held else None,
    }


def _payment_times(session_ids: list[int]) -> dict[int, list[datetime]]:
    """Each session's payment attempts' times, in order."""
    times: dict[int, list[datetime]] = {}
    rows = Payment.objects.filter(order__session_id__in=session_ids).order_by("created_at")
    for session_id, created in rows.values_list("order__session_id", "created_at"):
        times.setdefault(session_id, []).append(created)
    return times


def _clip(span: Span, start: datetime, end: datetime) -> Span:
    return (max(span[0], start), min(span[1], end))


def _length(span: Span) -> float:
    return max(0.0, (span[1] - span[0]).total_seconds())


def _union(spans: list[Span]) -> float:
    """Seconds covered by at least one of the spans."""
    total, reach = 0.0, None
    for begin, finish in sorted(span for span in spans if span[1] > span[0]):
        if reach is None or begin > reach:
            total += (finish - begin).total_seconds()
            reach = finish
        elif finish > reach:
            total += (finish - reach).total_seconds()
            reach = finish
    return total
