"""The sessions behind a report figure (its drill-down and its row export): the owner's sessions
of the range, narrowed to one group key, with what the CSV shows of each, read in the database
as flat tuples so a year exports in constant memory (an iterator over a server-side cursor)."""

from collections.abc import Iterator
from datetime import date
from typing import Any

from django.db.models import Case, CharField, F, IntegerField, QuerySet, Value, When
from django.db.models.functions import Coalesce

from apps.reports.aggregates import SecondsBetween
from apps.reports.definitions import PAID, ReportKey
from apps.reports.keys import key_expression
from apps.reports.ranges import ReportRange
from apps.sessions.models import Session, SessionStatus

ROW_COLUMNS = (
    "session",
    "started_at",
    "answered_at",
    "ended_at",
    "answer_seconds",
    "handle_seconds",
    "agent",
    "kiosk",
    "language",
    "outcome",
    "order_status",
    "order_total_cents",
)
CHUNK = 2000


def parse_key(group_by: str, raw: str) -> ReportKey:
    """A key as the report renders it (`key.id`) back to the value it groups on; None for
    "No agent". Raises ValueError on a key that cannot be one."""
    if group_by == "agent":
        return None if raw in ("", "null", "None") else int(raw)
    if group_by == "kiosk":
        return int(raw)
    if group_by == "hour":
        hour = int(raw)
        if not 0 <= hour <= 23:
            raise ValueError("hour out of range")
        return hour
    if group_by == "day":
        return date.fromisoformat(raw)
    if group_by == "language":
        return raw
    raise ValueError(f"unknown group_by {group_by!r}")


def sessions_behind(report: ReportRange, group_by: str | None = None, key: ReportKey = None) -> QuerySet[Session]:
    sessions = Session.objects.filter(**report.session_scope())
    if group_by is not None:
        sessions = sessions.annotate(report_key=key_expression(group_by, report))
        sessions = sessions.filter(report_key__isnull=True) if key is None else sessions.filter(report_key=key)
    return sessions


def _outcome() -> Case:
    return Case(
        When(order__status__in=PAID, accepted_at__isnull=True, then=Value("self-service sale")),
        When(order__status__in=PAID, then=Value("sale")),
        When(status=SessionStatus.ABANDONED, accepted_at__isnull=True, then=Value("abandoned waiting")),
        When(status=SessionStatus.ABANDONED, then=Value("abandoned after answer")),
        default=F("status"),
        output_field=CharField(),
    )


def export_rows(sessions: QuerySet[Session]) -> Iterator[tuple[Any, ...]]:
    """One tuple per session (ROW_COLUMNS), oldest first, streamed from the database."""
    rows = (
        sessions.annotate(
            answer=SecondsBetween(F("created_at"), F("accepted_at")),
            handle=SecondsBetween(F("accepted_at"), F("ended_at")),
            outcome=_outcome(),
            order_total=Coalesce(F("order__total_cents"), Value(0), output_field=IntegerField()),
        )
        .order_by("created_at", "pk")
        .values_list(
            "public_id",
            "created_at",
            "accepted_at",
            "ended_at",
            "answer",
            "handle",
            "agent__name",
            "kiosk__name",
            "customer_locale",
            "outcome",
            "order__status",
            "order_total",
        )
    )
    return rows.iterator(chunk_size=CHUNK)
