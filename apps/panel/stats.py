"""Read-only figures for the dashboard and the billing page, always for one owner."""

from datetime import date, datetime, timedelta
from typing import TypedDict

from django.db.models import Count, Q, Sum
from django.utils import timezone

from apps.orders.models import PAID_STATUSES
from apps.orders.selectors import orders_of_owner
from apps.panel.labels import end_reason_label
from apps.sessions.models import ENDED_STATUSES, Session
from apps.sessions.pricing import session_cost_cents
from apps.sessions.selectors import sessions_of_owner


class EndReasonRow(TypedDict):
    end_reason: str
    count: int
    label: str


class EndReasons(TypedDict):
    rows: list[EndReasonRow]
    ended: int
    completion_rate: int | None


class DayRow(TypedDict):
    day: date
    total: int
    completed: int
    height: int


class CostRow(TypedDict):
    session: Session
    cost_cents: int


class Usage(TypedDict):
    sessions: int
    talk_seconds: int
    cost_cents: int
    rows: list[CostRow]


def today_start() -> datetime:
    return timezone.now().replace(hour=0, minute=0, second=0, microsecond=0)


def period_figures(owner_id: int, since: datetime) -> dict[str, object]:
    sessions = sessions_of_owner(owner_id).filter(created_at__gte=since)
    accepted = sessions.exclude(accepted_at=None).values_list("created_at", "accepted_at")
    waits = [(accepted_at - created_at).total_seconds() for created_at, accepted_at in accepted if accepted_at]
    # The money kept: paid orders (apps.orders.models), so a refunded one leaves the revenue.
    orders = orders_of_owner(owner_id).filter(created_at__gte=since, status__in=PAID_STATUSES)
    revenue = orders.values("currency").annotate(total=Sum("total_cents"), count=Count("pk")).order_by("currency")
    return {
        "sessions": sessions.count(),
        "orders": sum(row["count"] for row in revenue),
        "revenue": list(revenue),
        "average_wait_seconds": round(sum(waits) / len(waits)) if waits else None,
    }


def end_reasons(owner_id: int, since: datetime) -> EndReasons:
    """How ended sessions ended, and the share completed."""
    counted = (
        sessions_of_owner(owner_id)
        .filter(created_at__gte=since, status__in=ENDED_STATUSES)
        .values("end_reason")
        .annotate(count=Count("pk"))
        .order_by("-count", "end_reason")
    )
    rows = [
        EndReasonRow(end_reason=row["end_reason"], count=row["count"], label=end_reason_label(row["end_reason"]))
        for row in counted
    ]
    ended = sum(row["count"] for row in rows)
    completed = sum(row["count"] for row in rows if row["end_reason"] == "completed")
    return {"rows": rows, "ended": ended, "completion_rate": round(100 * completed / ended) if ended else None}


def sessions_per_day(owner_id: int, days: int = 7) -> list[DayRow]:
    """Sessions and completed sessions for each of the last `days` days (oldest first)."""
    first = today_start() - timedelta(days=days - 1)
    totals: dict[date, tuple[int, int]] = {}
    for created_at, status in (
        sessions_of_owner(owner_id).filter(created_at__gte=first).values_list("created_at", "status")
    ):
        day = timezone.localtime(created_at).date()
        total, completed = totals.get(day, (0, 0))
        totals[day] = (total + 1, completed + int(status == "completed"))
    peak = max([total for total, _ in totals.values()] or [0])
    out: list[DayRow] = []
    for offset in range(days):
        day = (first + timedelta(days=offset)).date()
        total, completed = totals.get(day, (0, 0))
        height = round(100 * total / peak) if peak else 0
        out.append(DayRow(day=day, total=total, completed=completed, height=height))
    return out


def billing_usage(owner_id: int, since: datetime) -> Usage:
    """Agent talk time billed this period: ended sessions since `since`, each per started minute."""
    ended = sessions_of_owner(owner_id).filter(ended_at__gte=since).exclude(accepted_at=None)
    ended = ended.select_related("kiosk", "agent").order_by("-ended_at")
    rows = [CostRow(session=session, cost_cents=session_cost_cents(session)) for session in ended]
    return Usage(
        sessions=len(rows),
        talk_seconds=sum(row["session"].duration_seconds or 0 for row in rows),
        cost_cents=sum(row["cost_cents"] for row in rows),
        rows=rows[:50],
    )


def sessions_open_now(owner_id: int) -> int:
    return sessions_of_owner(owner_id).filter(Q(status="pending") | Q(status="active")).count()
