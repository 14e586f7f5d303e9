"""Recomputing the sessions rollup (PostgreSQL): the hours the triggers marked stale are counted
again from the base tables, whole, with the same definitions as the exact report (never adjusted
by deltas, so a missed event cannot skew it), then their UTC days are summed from those hours.

Concurrency: one refresh per owner at a time (a transaction-scoped advisory lock). The stale
marks are claimed by a DELETE first and counted after, so a change that commits meanwhile either
is seen by the count or leaves a mark of its own for the next refresh."""

from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction

from apps.reports.definitions import ANSWER_TARGET, PAID
from apps.reports.histogram import ANSWER_EDGES, BUCKETS, HANDLE_EDGES
from apps.reports.models import COUNTS, HISTOGRAMS
from apps.routing.models import OfferStatus
from apps.sessions.models import AssignmentVia, SessionStatus

DIMS = {  # dimension: its value on a session row `s`
    "": "''",
    "agent": "COALESCE(s.agent_id::text, '')",
    "kiosk": "s.kiosk_id::text",
    "language": "s.customer_locale",
}
COLUMNS = (*COUNTS, "handle_seconds_sum", *HISTOGRAMS)
ANALYZE_AFTER_HOURS = 24 * 7
_PAID = ", ".join(f"'{status}'" for status in PAID)  # enum values, not input


def _histogram(prefix: str, bucket: str) -> dict[str, str]:
    return {f"{prefix}_h{index:02d}": f"count(*) FILTER (WHERE {bucket} = {index + 1})" for index in range(BUCKETS)}


_ABANDONED = f"s.status = '{SessionStatus.ABANDONED}'"
_SESSION_PART = {
    "sessions_started": "count(*)",
    "sessions_answered": "count(s.accepted_at)",
    "answered_within_30s": "count(*) FILTER (WHERE s.accepted_at <= s.created_at + "
    f"interval '{int(ANSWER_TARGET.total_seconds())} seconds')",
    "abandoned_waiting": f"count(*) FILTER (WHERE s.accepted_at IS NULL AND {_ABANDONED})",
    "abandoned_after_answer": f"count(*) FILTER (WHERE s.accepted_at IS NOT NULL AND {_ABANDONED})",
    "handle_count": "count(s.handle)",
    "handle_seconds_sum": "COALESCE(sum(s.handle), 0)",
    **_histogram("answer", "s.answer_bucket"),
    **_histogram("handle", "s.handle_bucket"),
}
_PAID_ORDERS = f"JOIN orders_order o ON o.session_id = s.id AND o.status IN ({_PAID})"
# (joins from the hours' sessions `s`, the aggregates of the joined rows, the dimension value
# when it is not the session's: an offer counts for the agent it was made to). Each part is
# grouped on its own, then the parts' sums are added up.
PARTS: tuple[tuple[str, dict[str, str], dict[str, str]], ...] = (
    ("", _SESSION_PART, {}),
    (
        _PAID_ORDERS,
        {
            "paid_orders": "count(*)",
            "paid_orders_answered": "count(s.accepted_at)",
            "revenue_cents": "sum(o.total_cents)",
            "self_service_orders": "count(*) FILTER (WHERE s.accepted_at IS NULL)",
        },
        {},
    ),
    (f"{_PAID_ORDERS} JOIN orders_orderline l ON l.order_id = o.id", {"items": "sum(l.quantity)"}, {}),
    (
        "JOIN orders_order o ON o.session_id = s.id JOIN billing_refund f ON f.order_id = o.id",
        {"refunds_cents": "sum(f.amount_cents)"},
        {},
    ),
    (
        f"JOIN agent_sessions_assignment a ON a.session_id = s.id AND a.via = '{AssignmentVia.TRANSFER}'",
        {"transfers": "count(*)"},
        {},
    ),
    (
        "JOIN agent_sessions_offer f ON f.session_id = s.id",
        {
            "offers": "count(*)",
            "offers_missed": f"count(*) FILTER (WHERE f.status = '{OfferStatus.MISSED}')",
            "offers_accepted": f"count(*) FILTER (WHERE f.status = '{OfferStatus.ACCEPTED}')",
        },
        {"agent": "f.agent_id::text"},
    ),
)

_SESSIONS = (  # noqa: S608 - no user input (values are parameters)
    "SELECT s.*, date_trunc('hour', s.created_at, 'UTC') AS bucket, "
    "CASE WHEN s.answer IS NOT NULL THEN GREATEST(width_bucket(s.answer, ARRAY[{answer_edges}]::float8[]), 1) "
    "END AS answer_bucket, "  # (GREATEST skips a NULL: the CASE keeps one)
    "CASE WHEN s.handle IS NOT NULL THEN GREATEST(width_bucket(s.handle, ARRAY[{handle_edges}]::float8[]), 1) "
    "END AS handle_bucket "
    "FROM (SELECT s.id, s.business_id, s.agent_id, s.kiosk_id, s.customer_locale, s.status, s.created_at, "
    "s.accepted_at, extract(epoch FROM s.accepted_at - s.created_at)::float8 AS answer, "
    "extract(epoch FROM s.ended_at - s.accepted_at)::float8 AS handle "
    "FROM unnest(%(hours)s::timestamptz[]) h(hour) JOIN agent_sessions_session s ON s.owner_id = %(owner)s "
    "AND s.created_at >= h.hour AND s.created_at < h.hour + interval '1 hour') s"
).format(answer_edges=", ".join(map(str, ANSWER_EDGES)), handle_edges=", ".join(map(str, HANDLE_EDGES)))


def _insert_hours(dim: str) -> str:
    parts = []
    for joins, columns, values in PARTS:
        value = values.get(dim, DIMS[dim])
        selected = ", ".join(f"{columns.get(name, '0')} AS {name}" for name in COLUMNS)
        parts.append(f"SELECT s.business_id, s.bucket, {value} AS value, {selected} FROM s {joins} GROUP BY 1, 2, 3")  # noqa: S608 - no user input (values are parameters)
    sums = ", ".join(f"sum({name})" for name in COLUMNS)
    return (
        f"WITH s AS MATERIALIZED ({_SESSIONS}) "  # noqa: S608 - no user input (values are parameters)
        f"INSERT INTO reports_sessionrollup (owner_id, business_id, grain, bucket, dim, value, {', '.join(COLUMNS)}) "
        f"SELECT %(owner)s, business_id, 'h', bucket, %(dim)s, value, {sums} "
        f"FROM ({' UNION ALL '.join(parts)}) p GROUP BY business_id, bucket, value"
    )


_SUM_DAYS = (  # noqa: S608 - no user input (values are parameters)
    "INSERT INTO reports_sessionrollup (owner_id, business_id, grain, bucket, dim, value, {columns}) "
    "SELECT %(owner)s, r.business_id, 'd', d.day, r.dim, r.value, {sums} "
    "FROM unnest(%(days)s::timestamptz[]) d(day) JOIN reports_sessionrollup r ON r.owner_id = %(owner)s "
    "AND r.dim IN ('agent', 'kiosk', 'language') AND r.grain = 'h' "  # IN, not <>: an index range per dim
    "AND r.bucket >= d.day AND r.bucket < d.day + interval '1 day' "
    "GROUP BY r.business_id, d.day, r.dim, r.value"
).format(columns=", ".join(COLUMNS), sums=", ".join(f"sum(r.{name})" for name in COLUMNS))


def refresh(owner_id: int) -> int:
    """Recount the owner's stale hours; returns how many there were."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtextextended('reports_rollup', %s))", [owner_id])
        cursor.execute("SET LOCAL jit = off")  # compiling these wide statements costs more than it saves
        cursor.execute("DELETE FROM reports_stalehour WHERE owner_id = %s RETURNING hour", [owner_id])
        hours = sorted({row[0] for row in cursor.fetchall()})
        if not hours:
            return 0
        days = sorted({datetime.combine(hour.date(), datetime.min.time(), hour.tzinfo) for hour in hours})
        params: dict[str, Any] = {"owner": owner_id, "hours": hours, "days": days}
        cursor.execute(
            "DELETE FROM reports_sessionrollup WHERE owner_id = %(owner)s AND grain = 'h' AND bucket = ANY(%(hours)s)",
            params,
        )
        for dim in DIMS:
            cursor.execute(_insert_hours(dim), {**params, "dim": dim})
        cursor.execute(
            "DELETE FROM reports_sessionrollup WHERE owner_id = %(owner)s AND grain = 'd' AND bucket = ANY(%(days)s)",
            params,
        )
        if len(hours) > ANALYZE_AFTER_HOURS:  # a bulk load: plan the day sums on the new rows' statistics
            cursor.execute("ANALYZE reports_sessionrollup")
        cursor.execute(_SUM_DAYS, params)
    return len(hours)


def day_start(moment: datetime) -> datetime:
    """The UTC midnight at or before `moment` (a UTC-aware datetime)."""
    return datetime.combine(moment.date(), datetime.min.time(), moment.tzinfo)


def next_day_start(moment: datetime) -> datetime:
    start = day_start(moment)
    return start if start == moment else start + timedelta(days=1)
