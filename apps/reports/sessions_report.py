"""The sessions report: every metric of docs/reports.md for a range, per group and in total.

Exact: each figure is an SQL aggregate (the database does the counting): one query over sessions (with
their order, one-to-one), and one each over order lines, refunds, transfers and offers, both
grouped and for the totals. Every figure belongs to the sessions started in the range."""

from typing import Any, TypedDict

from django.db.models import Aggregate, Avg, Count, F, Model, Q, QuerySet, Sum

from apps.billing.models import Refund
from apps.orders.models import OrderLine
from apps.reports import ranges
from apps.reports.agent_load import AgentLoadRow, agent_load
from apps.reports.aggregates import Percentile, SecondsBetween
from apps.reports.breaks import break_seconds
from apps.reports.definitions import ANSWER_TARGET, PAID, KeyBody, Metrics, RawFigures, ReportKey
from apps.reports.keys import key_bodies, key_expression
from apps.reports.ranges import ReportRange
from apps.reports.rollup import rollup_figures
from apps.routing.models import Offer, OfferStatus
from apps.sessions.models import Assignment, AssignmentVia, Session, SessionStatus

# A report row: {"key": KeyBody, **Metrics}, its metrics read by name (METRICS).
ReportRow = dict[str, Any]


class AgentBreakRow(TypedDict):
    agent: KeyBody
    break_seconds: int


class SessionReport(TypedDict):
    rows: list[ReportRow]
    totals: Metrics
    agent_breaks: list[AgentBreakRow]
    agent_load: list[AgentLoadRow]


METRICS = (
    "sessions_started",
    "sessions_answered",
    "answer_seconds_p50",
    "answer_seconds_p90",
    "answered_within_30s_share",
    "abandoned_waiting",
    "abandoned_after_answer",
    "handle_seconds_avg",
    "handle_seconds_p90",
    "transfers",
    "paid_orders",
    "conversion",
    "revenue_cents",
    "average_order_cents",
    "items_per_order",
    "refunds_cents",
    "self_service_orders",
    "self_service_share",
    "offers",
    "offers_missed",
    "offer_acceptance",
)


def _session_aggregates() -> dict[str, Aggregate]:
    wait = SecondsBetween(F("created_at"), F("accepted_at"))
    handle = SecondsBetween(F("accepted_at"), F("ended_at"))
    paid = Q(order__status__in=PAID)
    return {
        "sessions_started": Count("pk"),
        "sessions_answered": Count("pk", filter=Q(accepted_at__isnull=False)),
        "answer_seconds_p50": Percentile(wait, 0.5),
        "answer_seconds_p90": Percentile(wait, 0.9),
        "answered_within_30s": Count("pk", filter=Q(accepted_at__lte=F("created_at") + ANSWER_TARGET)),
        "abandoned_waiting": Count("pk", filter=Q(accepted_at__isnull=True, status=SessionStatus.ABANDONED)),
        "abandoned_after_answer": Count("pk", filter=Q(accepted_at__isnull=False, status=SessionStatus.ABANDONED)),
        "handle_seconds_avg": Avg(handle),
        "handle_seconds_p90": Percentile(handle, 0.9),
        "paid_orders": Count("order", filter=paid),
        "paid_orders_answered": Count("order", filter=paid & Q(accepted_at__isnull=False)),
        "revenue_cents": Sum("order__total_cents", filter=paid),
        "self_service_orders": Count("order", filter=paid & Q(accepted_at__isnull=True)),
    }


def _part_queries(report: ReportRange) -> list[tuple[QuerySet[Model], str, str | None, dict[str, Aggregate]]]:
    """(rows, path to the session, path to the agent, aggregates) of each query."""
    return [
        (Session.objects.filter(**report.session_scope()), "", None, _session_aggregates()),
        (
            OrderLine.objects.filter(**report.session_scope("order__session__"), order__status__in=PAID),
            "order__session__",
            None,
            {"items": Sum("quantity")},
        ),
        (
            Refund.objects.filter(**report.session_scope("order__session__")),
            "order__session__",
            None,
            {"refunds_cents": Sum("amount_cents")},
        ),
        (
            Assignment.objects.filter(**report.session_scope("session__"), via=AssignmentVia.TRANSFER),
            "session__",
            None,
            {"transfers": Count("pk")},
        ),
        (
            Offer.objects.filter(**report.session_scope("session__")),
            "session__",
            "agent_id",  # an offer counts for the agent it was made to
            {
                "offers": Count("pk"),
                "offers_missed": Count("pk", filter=Q(status=OfferStatus.MISSED)),
                "offers_accepted": Count("pk", filter=Q(status=OfferStatus.ACCEPTED)),
            },
        ),
    ]


def exact_figures(report: ReportRange, group_by: str) -> tuple[dict[ReportKey, RawFigures], RawFigures]:
    """({key: raw aggregates}, totals) counted from the base tables (every database)."""
    grouped: dict[ReportKey, RawFigures] = {}
    totals: RawFigures = {}
    for rows, session_path, agent_path, aggregates in _part_queries(report):
        key = key_expression(group_by, report, session_path, agent_path)
        for row in rows.values(report_key=key).annotate(**aggregates).order_by():
            grouped.setdefault(row.pop("report_key"), {}).update(row)
        totals.update(rows.aggregate(**aggregates))
    return grouped, totals


def session_report(report: ReportRange, group_by: str) -> SessionReport:
    """{rows: [{key: {id, name}, **metrics}], totals: {**metrics}}: from the rollup for a long
    range on PostgreSQL (apps/reports/rollup.py), else exact."""
    grouped, totals = rollup_figures(report, group_by) or exact_figures(report, group_by)
    if group_by == "hour":
        for hour in range(24):
            grouped.setdefault(hour, {})
    elif group_by == "day":
        for day in report.days():
            grouped.setdefault(day, {})
    keys = sorted(grouped, key=_sort_key)
    bodies = key_bodies(group_by, keys)
    return {
        "rows": [{"key": bodies[key], **metrics_of(grouped[key])} for key in keys],
        "totals": metrics_of(totals),
        "agent_breaks": agent_breaks(report),
        "agent_load": agent_load(report),
    }


def agent_breaks(report: ReportRange) -> list[AgentBreakRow]:
    """[{agent: {id, name}, break_seconds}] of the agents on break within the range, by name."""
    seconds = break_seconds(report)
    names = key_bodies("agent", list(seconds))
    rows: list[AgentBreakRow] = [
        {"agent": names[agent_id], "break_seconds": total} for agent_id, total in seconds.items()
    ]
    return sorted(rows, key=lambda row: (row["agent"]["name"], row["agent"]["id"]))


def _sort_key(key: ReportKey) -> tuple[bool, str]:
    return (key is None, str(key) if not isinstance(key, int) else f"{key:010d}")


def metrics_of(raw: RawFigures) -> Metrics:
    """The named metrics from one group's raw aggregates (absent parts count zero)."""

    def count(name: str) -> int:
        return int(raw.get(name) or 0)

    started, answered, paid = count("sessions_started"), count("sessions_answered"), count("paid_orders")
    revenue, offers = count("revenue_cents"), count("offers")
    return {
        "sessions_started": started,
        "sessions_answered": answered,
        "answer_seconds_p50": _seconds(raw.get("answer_seconds_p50")),
        "answer_seconds_p90": _seconds(raw.get("answer_seconds_p90")),
        "answered_within_30s_share": _share(count("answered_within_30s"), started),
        "abandoned_waiting": count("abandoned_waiting"),
        "abandoned_after_answer": count("abandoned_after_answer"),
        "handle_seconds_avg": _seconds(raw.get("handle_seconds_avg")),
        "handle_seconds_p90": _seconds(raw.get("handle_seconds_p90")),
        "transfers": count("transfers"),
        "paid_orders": paid,
        "conversion": _share(count("paid_orders_answered"), answered),
        "revenue_cents": revenue,
        "average_order_cents": round(revenue / paid) if paid else None,
        "items_per_order": round(count("items") / paid, 2) if paid else None,
        "refunds_cents": count("refunds_cents"),
        "self_service_orders": count("self_service_orders"),
        "self_service_share": _share(count("self_service_orders"), paid),
        "offers": offers,
        "offers_missed": count("offers_missed"),
        "offer_acceptance": _share(count("offers_accepted"), offers),
    }


def _seconds(value: float | None) -> float | None:
    return None if value is None else round(float(value), 1)


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def agent_figures_today(owner_id: int) -> dict[int, ReportRow]:
    """{agent id: metrics} for today in the owner's time zone (the Agents page)."""
    body = session_report(_today_range(owner_id), "agent")
    return {row["key"]["id"]: row for row in body["rows"] if row["key"]["id"] is not None}


def my_figures_today(*, owner_id: int, agent_id: int) -> tuple[ReportRange, Metrics]:
    """One agent's metrics for today in the owner's time zone (the agent dashboard): its row of
    the by-agent report (zeros when it had no session), so both pages show the same figures."""
    report = _today_range(owner_id)
    rows = session_report(report, "agent")["rows"]
    mine = next((row for row in rows if row["key"]["id"] == agent_id), None)
    figures = metrics_of({}) if mine is None else {name: mine[name] for name in METRICS}
    return report, figures


def _today_range(owner_id: int) -> ReportRange:
    today = ranges.today_in(ranges.owner_time_zone(owner_id))
    return ranges.report_range(owner_id=owner_id, first_day=today, last_day=today)
