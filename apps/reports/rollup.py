"""The sessions report read from the rollup (PostgreSQL, long ranges): a few hundred or thousand
summed rows instead of every session of the range and its orders, lines, refunds, transfers and
offers. Used when the range spans days and holds more than REPORTS_EXACT_MAX_SESSIONS sessions; shorter ranges
(and SQLite) get the exact report, so small figures, the tests' hand-computed ones among them,
are exact, and only a long range's percentiles come from histogram buckets (docs/decisions/reports.md).

Buckets are UTC hours and days; the report's days and hours are the business's, so the rollup
serves zones whose offset is a whole number of hours over the range (each local midnight and
hour then starts a UTC hour); other zones get the exact report. Hour and day rows read the
hourly totals (dim ""), the others the UTC days inside the range plus the hours at its edges."""

from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction

from apps.reports.definitions import RawFigures, ReportKey
from apps.reports.histogram import ANSWER_EDGES, HANDLE_EDGES, columns, percentile
from apps.reports.models import COUNTS
from apps.reports.ranges import ReportRange
from apps.reports.rollup_refresh import next_day_start, refresh

_ANSWER, _HANDLE = columns("answer"), columns("handle")
_SUMMED = (*COUNTS, "handle_seconds_sum", *_ANSWER, *_HANDLE)
_KEYS = {
    "agent": "value",
    "kiosk": "value",
    "language": "value",
    "hour": "extract(hour FROM bucket AT TIME ZONE %(zone)s)::int",
    "day": "(bucket AT TIME ZONE %(zone)s)::date",
}


def whole_hour_offsets(report: ReportRange) -> bool:
    zone = report.zone
    for day in [*report.days(), report.last_day + timedelta(days=1)]:
        for hour in (0, 12):  # a DST change happens overnight; noon checks the other offset
            offset = datetime(day.year, day.month, day.day, hour, tzinfo=zone).utcoffset()
            if offset is None or offset.total_seconds() % 3600:
                return False
    return True


def _rows(report: ReportRange, group_by: str, params: dict[str, Any]) -> str:
    """The rollup rows of the range, as UNION ALL of index range scans (an OR of the ranges
    made PostgreSQL scan the whole table)."""
    start, end = report.start.astimezone(UTC), report.end.astimezone(UTC)
    params.update(start=start, end=end)
    where = "owner_id = %(owner)s"
    if report.business_id is not None:
        where += " AND business_id = %(business)s"
    ranges = [("h", "start", "end")]
    if group_by in ("hour", "day"):
        where += " AND dim = ''"
    else:
        where += " AND dim = %(dim)s"
        first, last = next_day_start(start), end.replace(hour=0, minute=0, second=0, microsecond=0)
        if first < last:
            params.update(first=first, last=last)
            ranges = [("d", "first", "last"), ("h", "start", "first"), ("h", "last", "end")]
    return " UNION ALL ".join(
        f"SELECT * FROM reports_sessionrollup WHERE {where} AND grain = '{grain}' "  # noqa: S608 - constants
        f"AND bucket >= %({low})s AND bucket < %({high})s"
        for grain, low, high in ranges
    )


def _raw(row: dict[str, Any]) -> RawFigures:
    """The aggregates the exact report's metrics_of reads, from one group's summed row."""
    answers, handles = [int(row.pop(name) or 0) for name in _ANSWER], [int(row.pop(name) or 0) for name in _HANDLE]
    handle_sum, handled = row.pop("handle_seconds_sum") or 0, row.pop("handle_count") or 0
    return {
        **row,
        "answer_seconds_p50": percentile(answers, ANSWER_EDGES, 0.5),
        "answer_seconds_p90": percentile(answers, ANSWER_EDGES, 0.9),
        "handle_seconds_avg": handle_sum / handled if handled else None,
        "handle_seconds_p90": percentile(handles, HANDLE_EDGES, 0.9),
    }


def _key(group_by: str, value: ReportKey) -> ReportKey:
    if group_by == "agent":
        return int(value) if value else None
    if group_by == "kiosk":
        return int(value)
    return value


def rollup_figures(report: ReportRange, group_by: str) -> tuple[dict[ReportKey, RawFigures], RawFigures] | None:
    """({key: raw aggregates}, totals) from the rollup, or None when the exact report should
    answer (not PostgreSQL, a single day, a zone with part-hour offsets, or few sessions)."""
    if connection.vendor != "postgresql" or report.first_day == report.last_day or not whole_hour_offsets(report):
        return None  # one day (today's figures on the dashboards): exact, and no recount on that read path
    refresh(report.owner_id)
    params: dict[str, Any] = {"owner": report.owner_id, "business": report.business_id, "zone": report.timezone}
    params["dim"] = group_by
    rows_sql = _rows(report, group_by, params)
    sums = ", ".join(f"sum({name}){'' if name == 'handle_seconds_sum' else '::bigint'} AS {name}" for name in _SUMMED)
    sql = (
        f"SELECT k, GROUPING(k) AS total, {sums} FROM (SELECT {_KEYS[group_by]} AS k, * "  # noqa: S608 - no user input (values are parameters)
        f"FROM ({rows_sql}) u) r GROUP BY GROUPING SETS ((k), ())"
    )
    with transaction.atomic(), connection.cursor() as cursor:
        # A few thousand rows: starting parallel workers cost more than the whole read (EXPLAIN
        # ANALYZE on the bench: 30 ms of a 40 ms read, on a loaded machine)
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0")
        cursor.execute(sql, params)
        names = [column.name for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    grouped: dict[ReportKey, RawFigures] = {}
    totals: RawFigures = {}
    for row in rows:
        key, total = row.pop("k"), row.pop("total")
        if total:
            totals = _raw(row)
        else:
            grouped[_key(group_by, key)] = _raw(row)
    if int(totals.get("sessions_started") or 0) <= settings.REPORTS_EXACT_MAX_SESSIONS:
        return None
    return grouped, totals
