"""The session-rows CSV on PostgreSQL: the database writes the CSV itself (`COPY (SELECT ...) TO
STDOUT WITH CSV HEADER`, read through psycopg 3's `cursor.copy`) and the blocks go to the client
as they come, so a year exports at COPY's speed in constant memory. The columns and their text
are those of the portable path (apps/panel/views/reports.py over session_rows.export_rows): times
in the report's zone as ISO 8601 with the offset, seconds to one decimal, "" for no agent, text
that a spreadsheet would take for a formula with a leading ' (apps/reports/csv_cells.py).

Only values travel as parameters (client-side binding, psycopg's way for COPY); the owner and
the range are always in the WHERE clause, a drill-down key narrows it further."""

from collections.abc import Iterator

from django.db import connection, transaction

from apps.reports.csv_cells import cell_sql
from apps.reports.definitions import PAID, ReportKey
from apps.reports.ranges import ReportRange
from apps.reports.session_rows import ROW_COLUMNS, sessions_behind
from apps.sessions.models import SessionStatus


def _local(column: str) -> str:
    """A time as Python's `astimezone(zone).isoformat()` writes it, in the report's zone (the
    transaction's TimeZone): six digits of microseconds only when there are some, then the
    offset with its minutes ("2026-10-24T23:59:50.680000+02:00")."""
    return (
        f"CASE WHEN {column} = date_trunc('second', {column}) "
        f"THEN to_char({column}, 'YYYY-MM-DD\"T\"HH24:MI:SSTZH:TZM') "
        f"ELSE to_char({column}, 'YYYY-MM-DD\"T\"HH24:MI:SS.USTZH:TZM') END"
    )


_TIMES = ("created_at", "accepted_at", "ended_at")


def _seconds(start: str, end: str) -> str:
    return f"round(extract(epoch FROM {end} - {start})::numeric, 1)"


def _select(where: str) -> str:
    """Formatted in the scan (parallel workers share it), then sorted."""
    paid = ", ".join(f"'{status}'" for status in PAID)  # enum values: constants, not input
    abandoned = f"'{SessionStatus.ABANDONED}'"
    columns = [
        "s.public_id",
        *(_local(f"s.{time}") for time in _TIMES),
        _seconds("s.created_at", "s.accepted_at"),
        _seconds("s.accepted_at", "s.ended_at"),
        cell_sql("u.name"),  # what owners and agents typed: neutralised as the csv.writer path does
        cell_sql("k.name"),
        cell_sql("s.customer_locale"),
        f"CASE WHEN o.status IN ({paid}) AND s.accepted_at IS NULL THEN 'self-service sale'"
        f" WHEN o.status IN ({paid}) THEN 'sale'"
        f" WHEN s.status = {abandoned} AND s.accepted_at IS NULL THEN 'abandoned waiting'"
        f" WHEN s.status = {abandoned} THEN 'abandoned after answer' ELSE s.status END",
        "o.status",
        "COALESCE(o.total_cents, 0)",
    ]
    named = ", ".join(f'{expression} AS "{name}"' for expression, name in zip(columns, ROW_COLUMNS, strict=True))
    return (
        f"SELECT {named} FROM agent_sessions_session s "  # noqa: S608 - no user input (values are parameters)
        "JOIN kiosks_kiosk k ON k.id = s.kiosk_id LEFT JOIN accounts_user u ON u.id = s.agent_id "
        f"LEFT JOIN orders_order o ON o.session_id = s.id WHERE {where} ORDER BY s.created_at, s.id"
    )


def copy_statement(report: ReportRange, group_by: str | None = None, key: ReportKey = None) -> tuple[str, list[object]]:
    """The COPY statement and its parameters for the sessions of the range (one group's with
    `group_by`, as sessions_behind selects them), for a transaction whose TimeZone is the
    report's (copy_csv)."""
    params: list[object] = []
    if group_by is None:
        where = "s.owner_id = %s AND s.created_at >= %s AND s.created_at < %s"
        params += [report.owner_id, report.start, report.end]
        if report.business_id is not None:
            where += " AND s.business_id = %s"
            params.append(report.business_id)
    else:
        subquery, sub_params = sessions_behind(report, group_by, key).values("pk").query.sql_with_params()
        where = f"s.owner_id = %s AND s.id IN ({subquery})"
        params += [report.owner_id, *sub_params]
    return f"COPY ({_select(where)}) TO STDOUT WITH (FORMAT csv, HEADER true)", params


def copy_csv(report: ReportRange, group_by: str | None = None, key: ReportKey = None) -> Iterator[bytes]:
    """The CSV (header first) in the blocks COPY sends; PostgreSQL only. The transaction holds
    the report's zone as TimeZone (set_config local to it), so times print in local time."""
    statement, params = copy_statement(report, group_by, key)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('TimeZone', %s, true)", [report.timezone])
        with connection.connection.cursor() as raw, raw.copy(statement, params) as copy:
            for block in copy:
                yield bytes(block)
