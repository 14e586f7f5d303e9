"""Kiosk status poll throughput against a bare Django JSON view, in one run.

Starts the production stack on loopback (throwaway PostgreSQL database, Redis, the Procfile's
`web` line: daphne config.asgi:application), pairs one kiosk, starts one pending session, then
drives with `wrk` (keep-alive clients):

  reference  GET /bench/ping                         a bare Django view returning {"ok": true}
  poll       GET /api/public/sessions/{id}/status    the kiosk poll, device headers

Both go through the same daphne process and the same middleware. The poll serves the status from
a cached copy that every session transition invalidates (apps/sessions/status_cache.py), so it is
measured twice, each time against the reference on the same server:

  poll       the configured copy (a steady poll)
  poll-db    a second server with KIOSK_STATUS_COPY_SECONDS=0: every poll reads PostgreSQL

A waiting kiosk polls every 2 s and its copy lives KIOSK_STATUS_COPY_SECONDS (10), so one poll in
five reads PostgreSQL; the target (poll >= 60 % of the reference's throughput) is judged on
that mix. Prints requests/s, p50/p90/p99 latency and every ratio.

    .venv/bin/python bench/kiosk_poll.py [--duration 4] [--rounds 6] [--connections 32]

docs/scaling.md records the figures and what they mean.
"""

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import harness
from harness import say

TARGET_RATIO = 0.60

# wrk calls done() once at the end; percentiles are in microseconds.
WRK_REPORT_LUA = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRKJSON {\\"requests\\": %d, \\"duration_us\\": %d, \\"p50_us\\": %d, \\"p90_us\\": %d, " ..
    "\\"p99_us\\": %d, \\"max_us\\": %d, \\"connect_errors\\": %d, \\"read_errors\\": %d, " ..
    "\\"write_errors\\": %d, \\"timeouts\\": %d, \\"non_2xx\\": %d}\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.timeout, e.status))
end
"""


@dataclass
class WrkResult:
    name: str
    requests: int
    duration_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    non_2xx: int

    @property
    def rps(self) -> float:
        return self.requests / self.duration_s if self.duration_s else 0.0


def require_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk is None:
        say("ERROR: `wrk` is not installed; this benchmark needs it to drive keep-alive HTTP load.")
        say("       Install it with:  apt-get install -y wrk   (Debian package `wrk`), then rerun.")
        sys.exit(3)
    return wrk


def run_wrk(wrk: str, name: str, url: str, headers: dict[str, str], args, seconds: int) -> WrkResult:
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_REPORT_LUA)
    argv = [wrk, f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--timeout", "5s", "-s", script.name]
    for key, value in headers.items():
        argv += ["-H", f"{key}: {value}"]
    argv.append(url)
    try:
        completed = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30, check=True)
    finally:
        Path(script.name).unlink(missing_ok=True)
    line = next((row for row in completed.stdout.splitlines() if row.startswith("WRKJSON ")), None)
    if line is None:
        raise SystemExit(f"could not read wrk's report:\n{completed.stdout}\n{completed.stderr}")
    data = json.loads(line.removeprefix("WRKJSON "))
    errors = data["connect_errors"] + data["read_errors"] + data["write_errors"] + data["timeouts"]
    return WrkResult(
        name=name,
        requests=data["requests"],
        duration_s=data["duration_us"] / 1e6,
        p50_ms=data["p50_us"] / 1000,
        p90_ms=data["p90_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        max_ms=data["max_us"] / 1000,
        errors=errors,
        non_2xx=data["non_2xx"],
    )


def fetch_json(url: str, headers: dict[str, str]) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def median_result(name: str, results: list[WrkResult]) -> WrkResult:
    return WrkResult(
        name=name,
        requests=sum(r.requests for r in results),
        duration_s=sum(r.duration_s for r in results),
        p50_ms=statistics.median(r.p50_ms for r in results),
        p90_ms=statistics.median(r.p90_ms for r in results),
        p99_ms=statistics.median(r.p99_ms for r in results),
        max_ms=max(r.max_ms for r in results),
        errors=sum(r.errors for r in results),
        non_2xx=sum(r.non_2xx for r in results),
    )


def print_table(reference: WrkResult, poll: WrkResult, header: bool = True) -> None:
    if header:
        columns = ("req/s", "p50 ms", "p90 ms", "p99 ms", "max ms", "requests")
        say(f"{'':<11}" + "".join(f"{column:>10}" for column in columns) + f"{'errors':>8}")
    for result in (reference, poll):
        say(
            f"{result.name:<11}{result.rps:>10.0f}{result.p50_ms:>10.2f}{result.p90_ms:>10.2f}"
            f"{result.p99_ms:>10.2f}{result.max_ms:>10.1f}{result.requests:>10}{result.errors + result.non_2xx:>8}"
        )


# ----------------------------------------------------------------------------- PostgreSQL


class PgWatch:
    """Counts PostgreSQL sessions opened on the bench database during a load run
    (pg_stat_database.sessions) and samples how many are open at once (pg_stat_activity)."""

    def __init__(self, env: harness.BenchEnv):
        import psycopg

        self.db_name = env.db_name
        self.conn = psycopg.connect(env.admin_url, autocommit=True, connect_timeout=5)
        self.peak = 0
        self._stop = threading.Event()
        self._thread = None
        self._start_sessions = 0

    def _sessions(self) -> int:
        self.conn.execute("SELECT pg_stat_clear_snapshot()")
        row = self.conn.execute("SELECT sessions FROM pg_stat_database WHERE datname = %s", (self.db_name,)).fetchone()
        return int(row[0] or 0) if row else 0

    def _open(self) -> int:
        sql = "SELECT count(*) FROM pg_stat_activity WHERE datname = %s"
        return int(self.conn.execute(sql, (self.db_name,)).fetchone()[0])

    def __enter__(self):
        self._start_sessions = self._sessions()
        self.peak = 0
        self._stop.clear()

        def sample():
            while not self._stop.wait(0.25):
                self.peak = max(self.peak, self._open())

        self._thread = threading.Thread(target=sample, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self._stop.set()
        self._thread.join(5)
        time.sleep(1.0)  # backends flush their statistics about once a second
        self.opened = self._sessions() - self._start_sessions

    def close(self) -> None:
        self.conn.close()


# ----------------------------------------------------------------------------- profile


def profile_in_process(tenant: harness.Tenant, poll_path: str, requests: int) -> None:
    """Serve both views in this process (Django test client, same database and Redis, one
    persistent database connection) and print where the poll's time goes."""
    import cProfile
    import pstats

    import redis
    from django.db import connection
    from django.test import Client

    client = Client(headers=tenant.device_headers)
    say("")
    say(f"profile: {requests} in-process requests per view (Django test client, no HTTP server, one kept connection)")
    per_request = {}
    for name, path in (("reference", "/bench/ping"), ("poll", poll_path)):
        for _ in range(50):  # warm caches and the connection
            assert client.get(path).status_code == 200
        sql, redis_commands = _count_io(client, path, connection, redis)
        started = time.perf_counter()
        for _ in range(requests):
            client.get(path)
        per_request[name] = (time.perf_counter() - started) / requests * 1e6
        cost = f"{per_request[name]:>7.0f} us/request"
        say(f"  {name:<10} {cost}, {len(sql)} SQL queries, {redis_commands} Redis commands")
        for statement in sql:
            say(f"      sql: {statement[:160]}")
    say(f"  the poll's own work costs {per_request['poll'] - per_request['reference']:.0f} us more than the reference")

    timings = []
    for _ in range(20):
        connection.close()
        started = time.perf_counter()
        connection.ensure_connection()
        timings.append((time.perf_counter() - started) * 1e6)
    say(f"  opening a new PostgreSQL connection (what daphne pays per request): {statistics.median(timings):.0f} us")

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(requests):
        client.get(poll_path)
    profiler.disable()
    stats = pstats.Stats(profiler)
    _print_buckets(stats, requests)
    say("  top functions of the poll by own time (us per request under the profiler, calls per request):")
    rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:15]
    for (filename, line, func), (_cc, calls, tottime, cumtime, _callers) in rows:
        say(
            f"    {tottime / requests * 1e6:>7.1f}  cum {cumtime / requests * 1e6:>7.1f}  "
            f"{calls / requests:>5.1f}x  {_short_path(filename)}:{line}({func})"
        )


def _count_io(client, path: str, connection, redis) -> tuple[list[str], int]:
    """The SQL statements and the number of Redis commands one request issues."""
    statements: list[str] = []
    commands = {"n": 0}
    original = redis.Redis.execute_command

    def counting(self, *args, **options):
        commands["n"] += 1
        return original(self, *args, **options)

    def record(execute, sql, params, many, context):
        statements.append(sql)
        return execute(sql, params, many, context)

    redis.Redis.execute_command = counting
    try:
        with connection.execute_wrapper(record):
            client.get(path)
    finally:
        redis.Redis.execute_command = original
    return statements, commands["n"]


BUCKETS = (
    ("PostgreSQL driver (psycopg, incl. waiting on the server)", ("site-packages/psycopg",)),
    ("Redis client (redis-py, incl. waiting on the server)", ("site-packages/redis/",)),
    ("Django ORM (query building, model instances)", ("site-packages/django/db/",)),
    ("Django cache backend", ("site-packages/django/core/cache/",)),
    ("DRF (views, serializers, throttles, renderers)", ("site-packages/rest_framework/",)),
    ("Django request/response, middleware, urls", ("site-packages/django/",)),
    ("other libraries", ("site-packages/",)),
    ("application code (apps/, config/)", (str(harness.ROOT) + "/",)),
    ("socket I/O, pickle and other builtins", ("~", "{built-in", "<built-in")),
    ("Python standard library", ("/lib/python3",)),
)


def _bucket_for(filename: str) -> str:
    for label, needles in BUCKETS:
        if any(needle in filename for needle in needles):
            return label
    return "other"


def _short_path(filename: str) -> str:
    for marker in ("site-packages/", str(harness.ROOT) + "/", "/lib/python3.11/"):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


def _print_buckets(stats, requests: int) -> None:
    totals: dict[str, float] = {}
    for (filename, _line, _func), (_cc, _calls, tottime, _cum, _callers) in stats.stats.items():
        label = _bucket_for(filename)
        totals[label] = totals.get(label, 0.0) + tottime
    grand = sum(totals.values()) or 1.0
    say("  poll time by component under cProfile (own time; us per request, share):")
    for label, seconds in sorted(totals.items(), key=lambda item: item[1], reverse=True):
        say(f"    {seconds / requests * 1e6:>7.0f}  {seconds / grand:>4.0%}  {label}")


# ----------------------------------------------------------------------------- main


@dataclass
class ServerRun:
    """One web server's alternating reference/poll rounds."""

    label: str
    reference: WrkResult
    poll: WrkResult

    @property
    def ratio(self) -> float:
        return self.poll.rps / self.reference.rps if self.reference.rps else 0.0

    @property
    def valid(self) -> bool:
        return not (self.reference.errors or self.reference.non_2xx or self.poll.errors or self.poll.non_2xx)


def measure(env: harness.BenchEnv, label: str, tenant, poll_path: str, args, wrk: str) -> ServerRun:
    with harness.running_servers(env, 1) as (server,):
        reference_url, poll_url = f"{server.base_url}/bench/ping", f"{server.base_url}{poll_path}"
        status, body = fetch_json(reference_url, {})
        assert status == 200 and body == {"ok": True}, (status, body)
        status, body = fetch_json(poll_url, tenant.device_headers)
        assert status == 200 and body["status"] == "pending", (status, body)
        say(f"[{label}] poll answers: {json.dumps(body)}")
        if args.warmup:
            run_wrk(wrk, "warm-up", reference_url, {}, args, args.warmup)
            run_wrk(wrk, "warm-up", poll_url, tenant.device_headers, args, args.warmup)
        references, polls = [], []
        for number in range(1, args.rounds + 1):
            references.append(run_wrk(wrk, "reference", reference_url, {}, args, args.duration))
            polls.append(run_wrk(wrk, "poll", poll_url, tenant.device_headers, args, args.duration))
            ratio = polls[-1].rps / references[-1].rps
            say(
                f"[{label}] round {number}: reference {references[-1].rps:.0f} req/s, "
                f"poll {polls[-1].rps:.0f} req/s, ratio {ratio:.0%}"
            )
    return ServerRun(label, median_result(f"ref/{label}", references), median_result(label, polls))


def kiosk_mix(copy_run: ServerRun, database_run: ServerRun, database_share: float) -> float:
    """The poll's throughput relative to the reference when `database_share` of the polls miss
    the cached copy: time per request adds up, so the ratios mix harmonically."""
    return 1 / ((1 - database_share) / copy_run.ratio + database_share / database_run.ratio)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # Short alternating rounds: a shared VM's speed drifts over seconds, and both views of a
    # round see the same drift, so many short rounds give a steadier ratio than one long pair.
    parser.add_argument("--duration", type=int, default=4, help="seconds of load per view and round (4)")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of unmeasured load per view first (2)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating reference/poll rounds per server (6)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--connections", type=int, default=32, help="concurrent keep-alive connections (32)")
    parser.add_argument("--db-name", default="kiosk_bench")
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL, help="PostgreSQL URL used to create it")
    parser.add_argument("--redis-url", default=harness.DEFAULT_REDIS_URL)
    parser.add_argument("--keep-db", action="store_true", help="leave the database behind for inspection")
    parser.add_argument("--profile", action="store_true", help="always profile (done anyway below the target)")
    parser.add_argument("--profile-requests", type=int, default=2000)
    parser.add_argument("--check", action="store_true", help="exit 1 when the ratio is below the target")
    args = parser.parse_args()

    wrk = require_wrk()
    # One kiosk is polled by every connection: lift its 600/min limit so the figures are not
    # 429s. The throttle still runs (and costs what it costs) on every request.
    extra = {"BENCH_ROUTES": "true", "THROTTLE_KIOSK": "1000000/s"}
    env = harness.BenchEnv(db_name=args.db_name, admin_url=args.admin_url, redis_url=args.redis_url, extra=extra)
    harness.create_database(env)
    try:
        harness.setup_django(env)
        harness.clear_redis_prefix(env)
        from django.conf import settings
        from django.db import connections

        from apps.kiosks.models import Kiosk
        from apps.sessions.services import session_start

        tenant = harness.make_tenant()
        session = session_start(kiosk=Kiosk.objects.get(pk=tenant.kiosk_id), customer_locale="en-US")
        connections.close_all()
        poll_path = f"/api/public/sessions/{session.public_id}/status"
        say(f"kiosk {tenant.kiosk_id} paired; pending session {session.public_id}")
        say(
            f"load: wrk -t{args.threads} -c{args.connections}, {args.warmup} s warm-up then "
            f"{args.duration} s per view x {args.rounds} round(s) per server, keep-alive, loopback"
        )
        copy_seconds = settings.KIOSK_STATUS_COPY_SECONDS
        copy_run = measure(env, "poll", tenant, poll_path, args, wrk)
        database_env = harness.BenchEnv(
            db_name=args.db_name,
            admin_url=args.admin_url,
            redis_url=args.redis_url,
            extra={**extra, "KIOSK_STATUS_COPY_SECONDS": "0"},
        )
        database_run = measure(database_env, "poll-db", tenant, poll_path, args, wrk)

        say("")
        poll_route = poll_path.replace(session.public_id, "{id}")
        say(f"reference = GET /bench/ping (bare Django JSON view); poll = GET {poll_route}")
        say(f"  poll     the status from its cached copy ({copy_seconds} s, invalidated by every transition)")
        say("  poll-db  every poll reads PostgreSQL (KIOSK_STATUS_COPY_SECONDS=0; a separate server run)")
        print_table(copy_run.reference, copy_run.poll)
        print_table(database_run.reference, database_run.poll, header=False)
        # A waiting kiosk polls every 2 s; the copy lives copy_seconds, so one poll in
        # copy_seconds / 2 reads the database (more for a session that moves in between).
        database_share = min(1.0, 2 / copy_seconds) if copy_seconds else 1.0
        mixed = kiosk_mix(copy_run, database_run, database_share)
        say(
            f"poll / reference throughput: {copy_run.ratio:.1%} from the copy, {database_run.ratio:.1%} from PostgreSQL"
        )
        verdict = "meets" if mixed >= TARGET_RATIO else "BELOW"
        say(
            f"a kiosk's mix ({database_share:.0%} of polls from PostgreSQL): {mixed:.1%}  "
            f"(target >= {TARGET_RATIO:.0%}: {verdict} target)"
        )
        valid = copy_run.valid and database_run.valid
        if not valid:
            say("WARNING: some requests failed (socket errors, timeouts or non-2xx answers); figures are suspect.")
        if args.profile or mixed < TARGET_RATIO:
            profile_in_process(tenant, poll_path, args.profile_requests)
        if args.check and (mixed < TARGET_RATIO or not valid):
            return 1
        return 0
    finally:
        with_cleanup_errors = []
        try:
            harness.clear_redis_prefix(env)
        except Exception as exc:
            with_cleanup_errors.append(exc)
        try:
            from django.db import connections

            connections.close_all()
        except Exception as exc:
            with_cleanup_errors.append(exc)
        if not args.keep_db:
            harness.drop_database(env)
        for exc in with_cleanup_errors:
            say(f"cleanup: {exc!r}")


if __name__ == "__main__":
    sys.exit(main())
