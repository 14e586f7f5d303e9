"""bench/reports: the sessions report and the CSV export over 1,000,000 sessions of one owner.

Creates a throwaway PostgreSQL database, migrates it, and generates a year of sessions (1 M by
default, 20 kiosks, 30 agents, 15 % unanswered, 60 % with a paid order of two lines) with
INSERT ... SELECT generate_series, counts the reports' rollup once (the load's triggers marked
every hour stale; timed), then measures in the same run:

1. the 30-day report grouped by agent and by hour (apps.reports.sessions_report.session_report,
   every metric) against a bare `SELECT key, count(*) ... GROUP BY key` of the same sessions:
   p50 of --runs each; goal within 2x of the bare query and p50 under 500 ms;
2. the full-year session-rows CSV export as the panel streams it (on PostgreSQL COPY of the
   formatted rows, apps/reports/session_copy.py) against a bare `COPY (same rows) TO STDOUT`: rows a
   second (goal at least half of COPY's), and the process's peak RSS growth while exporting
   (flat: it must not grow with the rows).

    .venv/bin/python bench/reports.py [--sessions 1000000] [--runs 7] [--keep-db] [--check]

BENCH_DB_NAME names the throwaway database (default kiosk_bench_reports), BENCH_REDIS_URL the Redis.
"""

import argparse
import csv
import os
import resource
import statistics
import sys
import time
from datetime import date, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import say  # noqa: E402

GOAL_RATIO, GOAL_P50_MS, GOAL_EXPORT_SHARE = 2.0, 500.0, 0.5
LAST_DAY = date(2026, 10, 31)


def generate(owner_id: int, business_id: int, kiosk_ids: list[int], agent_ids: list[int], count: int) -> None:
    from django.db import connection

    seconds_per_session = 365 * 86400 / count
    with connection.cursor() as cursor:
        cursor.execute(
            """
            INSERT INTO agent_sessions_session (public_id, owner_id, business_id, kiosk_id, agent_id, status,
                customer_locale, created_at, accepted_at, ended_at, end_reason, notes)
            SELECT 'ses_bench' || g, %(owner)s, %(business)s, (%(kiosks)s::bigint[])[1 + g %% %(nk)s],
                CASE WHEN g %% 20 < 3 THEN NULL ELSE (%(agents)s::bigint[])[1 + g %% %(na)s] END,
                CASE WHEN g %% 20 < 3 THEN 'abandoned' WHEN g %% 20 = 3 THEN 'abandoned' ELSE 'completed' END,
                (ARRAY['en-US','es-ES','fr-FR','de-DE'])[1 + g %% 4],
                %(start)s::timestamptz + make_interval(secs => g * %(step)s),
                CASE WHEN g %% 20 < 3 THEN NULL
                     ELSE %(start)s::timestamptz + make_interval(secs => g * %(step)s + 5 + g %% 60) END,
                %(start)s::timestamptz + make_interval(secs => g * %(step)s + 65 + g %% 600),
                CASE WHEN g %% 20 < 4 THEN 'customer_abandoned' ELSE 'completed' END, ''
            FROM generate_series(1, %(count)s) g
            """,
            {
                "owner": owner_id,
                "business": business_id,
                "kiosks": kiosk_ids,
                "nk": len(kiosk_ids),
                "agents": agent_ids,
                "na": len(agent_ids),
                "start": (LAST_DAY - timedelta(days=364)).isoformat() + "T00:00:00+00",
                "step": seconds_per_session,
                "count": count,
            },
        )
        cursor.execute(
            """
            INSERT INTO orders_order (session_id, owner_id, business_id, number, status, currency,
                subtotal_cents, tax_cents, total_cents, dining, receipt_email, created_at, updated_at)
            SELECT s.id, s.owner_id, s.business_id, s.id::text, 'completed', 'EUR',
                1000 + s.id %% 2000, 0, 1000 + s.id %% 2000, '', '', s.created_at, s.created_at
            FROM agent_sessions_session s WHERE s.owner_id = %(owner)s AND s.status = 'completed' AND s.id %% 4 <> 0
            """,
            {"owner": owner_id},
        )
        cursor.execute(
            """
            INSERT INTO orders_orderline (order_id, position, name, quantity, unit_price_cents, modifiers, notes)
            SELECT o.id, p, 'Item ' || (o.id %% 12), 1 + o.id %% 3, 500, '[]'::jsonb, ''
            FROM orders_order o CROSS JOIN generate_series(0, 1) p WHERE o.owner_id = %(owner)s
            """,
            {"owner": owner_id},
        )
    with connection.cursor() as cursor:  # VACUUM (outside a transaction) as autovacuum would after
        cursor.execute("VACUUM ANALYZE")  # bulk inserts: sets the visibility map index-only scans need


def timed(function, runs: int) -> float:
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(samples)


def bare_group_by(report, key_sql: str):
    from django.db import connection

    def run():
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {key_sql}, count(*) FROM agent_sessions_session "
                "WHERE owner_id = %s AND created_at >= %s AND created_at < %s GROUP BY 1",
                [report.owner_id, report.start, report.end],
            )
            cursor.fetchall()

    return run


def peak_rss_kb() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Sink:
    def write(self, value: str) -> str:
        return value


def export_csv(report) -> int:
    """Rows of the session-rows CSV as the panel streams it: on PostgreSQL the database's own
    COPY of the formatted rows (apps/reports/session_copy.py), elsewhere csv.writer over rows."""
    from django.db import connection

    from apps.reports.session_copy import copy_csv
    from apps.reports.session_rows import export_rows, sessions_behind

    if connection.vendor == "postgresql":
        return sum(block.count(b"\n") for block in copy_csv(report)) - 1  # the header line
    writer, rows = csv.writer(Sink()), 0
    for row in export_rows(sessions_behind(report)):
        writer.writerow(row)
        rows += 1
    return rows


def bare_copy(report) -> int:
    from django.db import connection

    sql = (
        "COPY (SELECT s.public_id, s.created_at, s.accepted_at, s.ended_at, u.name, k.name, s.customer_locale, "
        "s.status, o.status, o.total_cents FROM agent_sessions_session s LEFT JOIN accounts_user u ON u.id = "
        "s.agent_id JOIN kiosks_kiosk k ON k.id = s.kiosk_id LEFT JOIN orders_order o ON o.session_id = s.id "
        f"WHERE s.owner_id = {int(report.owner_id)} AND s.created_at >= '{report.start.isoformat()}' "
        f"AND s.created_at < '{report.end.isoformat()}' ORDER BY s.created_at, s.id) TO STDOUT (FORMAT csv)"
    )
    connection.ensure_connection()
    rows = 0
    with connection.connection.cursor() as cursor, cursor.copy(sql) as copy:
        for block in copy:
            rows += bytes(block).count(b"\n")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    env = harness.BenchEnv(
        db_name=os.environ.get("BENCH_DB_NAME", "kiosk_bench_reports"),  # one per concurrent run
        admin_url=os.environ.get("BENCH_ADMIN_URL", harness.DEFAULT_ADMIN_URL),
        redis_url=os.environ.get("BENCH_REDIS_URL", harness.DEFAULT_REDIS_URL),
    )
    harness.create_database(env)
    harness.setup_django(env)
    try:
        return run(args)
    finally:
        harness.clean_up(env, keep_db=args.keep_db)


def run(args) -> int:
    from django.conf import settings
    from django.db import connection

    from apps.accounts.models import Business, Owner, User
    from apps.kiosks.models import Kiosk
    from apps.reports.ranges import report_range
    from apps.reports.rollup import rollup_figures
    from apps.reports.rollup_refresh import refresh
    from apps.reports.sessions_report import session_report

    owner = Owner.objects.create(name="Bench Owner")
    business = Business.objects.create(owner=owner, name="Bench", timezone="Europe/Madrid")
    kiosks = Kiosk.objects.bulk_create(
        Kiosk(business=business, name=f"Kiosk {n}", device_id=f"00000000-0000-0000-0000-{n:012d}") for n in range(20)
    )
    agents = User.objects.bulk_create(
        User(email=f"agent{n}@bench.test", name=f"Agent {n}", owner=owner, is_agent=True) for n in range(30)
    )
    started = time.monotonic()
    generate(owner.pk, business.pk, [k.pk for k in kiosks], [a.pk for a in agents], args.sessions)
    say(f"generated {args.sessions:,} sessions with orders and lines in {time.monotonic() - started:.1f} s")
    started = time.monotonic()
    hours = refresh(owner.pk)  # the load's triggers marked every hour stale; count them once now
    say(f"rollup counted for {hours:,} hours in {time.monotonic() - started:.1f} s")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE reports_sessionrollup")

    month = report_range(owner_id=owner.pk, first_day=LAST_DAY - timedelta(days=29), last_day=LAST_DAY)
    ok = True
    path = "rollup" if rollup_figures(month, "agent") is not None else "exact (base tables)"
    say(f"30-day range: {path} path (REPORTS_EXACT_MAX_SESSIONS {settings.REPORTS_EXACT_MAX_SESSIONS:,})")
    for group_by, key_sql in (
        ("agent", "agent_id"),
        ("hour", "extract(hour from created_at at time zone 'Europe/Madrid')"),
    ):
        report_ms = timed(lambda group_by=group_by: session_report(month, group_by), args.runs)
        bare_ms = timed(bare_group_by(month, key_sql), args.runs)
        ratio = report_ms / bare_ms
        passed = ratio <= GOAL_RATIO and report_ms <= GOAL_P50_MS
        ok &= passed
        say(
            f"30-day report by {group_by}: p50 {report_ms:.1f} ms; bare GROUP BY p50 {bare_ms:.1f} ms; "
            f"ratio {ratio:.2f} (goal <= {GOAL_RATIO}, p50 <= {GOAL_P50_MS:.0f} ms): {'ok' if passed else 'MISSED'}"
        )

    year = report_range(owner_id=owner.pk, first_day=LAST_DAY - timedelta(days=364), last_day=LAST_DAY)
    rss_before = peak_rss_kb()
    started = time.perf_counter()
    exported = export_csv(year)
    export_rate = exported / (time.perf_counter() - started)
    rss_growth_mb = (peak_rss_kb() - rss_before) / 1024
    started = time.perf_counter()
    copied = bare_copy(year)
    copy_rate = copied / (time.perf_counter() - started)
    share = export_rate / copy_rate
    passed = share >= GOAL_EXPORT_SHARE and exported == copied
    ok &= passed
    say(
        f"full-year CSV export: {exported:,} rows at {export_rate:,.0f} rows/s; bare COPY {copied:,} rows at "
        f"{copy_rate:,.0f} rows/s; share {share:.2f} (goal >= {GOAL_EXPORT_SHARE}): {'ok' if passed else 'MISSED'}; "
        f"peak RSS growth while exporting {rss_growth_mb:.1f} MB"
    )
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
