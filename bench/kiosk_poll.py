"""The kiosk hot path (the kiosk's polled status read and heartbeat) against its references, in one alternating run.

Starts, each on its own daphne process on loopback (bench/references.py, bench/harness.py):

  raw            a raw ASGI callable answering {"ok": true}               (the server's ceiling)
  django-async   a minimal Django project (startproject), async view
  django-sync    the same project, sync view
  the project    the Procfile's `web` line on a throwaway PostgreSQL database and Redis, twice:
                 as configured, and with KIOSK_STATUS_COPY_SECONDS=0 (every poll reads PostgreSQL)

pairs one kiosk, starts one pending session, then alternates short wrk rounds (keep-alive, -c32)
over the references and:

  poll           GET /api/public/sessions/{id}/status   the status from its cached copy
  poll-db        the same on the second server: every poll reads PostgreSQL
  heartbeat      POST /api/public/kiosks/heartbeat

Both are answered by the lean route in front of Django (apps/kiosk_app/hot_path.py). A waiting
kiosk polls every 2 s and its copy lives KIOSK_STATUS_COPY_SECONDS (10), so one poll in five reads
PostgreSQL: "poll-mix" is that mix (time per request adds up, so the rates mix harmonically).
Prints req/s, p50/p99 latency and the server's CPU per request of each target, every ratio to
raw ASGI and to the minimal Django views, then the goal (poll-mix and heartbeat >= 30 % of raw
ASGI) and whether it is met. --profile adds where the hot path's time goes, in this process.

    .venv/bin/python bench/kiosk_poll.py [--rounds 6] [--duration 4] [--profile] [--check]

The machine may be shared: compare figures only inside one run. docs/scaling.md has the figures.
"""

import argparse
import json
import sys
import urllib.request

import harness
import loadgen
import references
from harness import say
from references import Target

GOAL_RATIO = 0.30  # of raw ASGI on the same daphne
GOALS = (("poll-mix", "raw"), ("heartbeat", "raw"))
REFERENCES = ("raw", "django-async", "django-sync")


def fetch(url: str, headers: dict[str, str], method: str = "GET") -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, json.loads(response.read())


def mixed_rate(copy: loadgen.WrkResult, database: loadgen.WrkResult, database_share: float) -> float:
    """Requests/s when `database_share` of the polls miss the copy (seconds per request add up)."""
    return 1 / ((1 - database_share) / copy.rps + database_share / database.rps)


def report(results: dict[str, loadgen.WrkResult], database_share: float) -> bool:
    say("")
    say(f"{'':<14}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'CPU/req':>11}{'requests':>10}{'failed':>8}")
    for result in results.values():
        say(
            f"{result.name:<14}{result.rps:>9.0f}{result.p50_ms:>9.2f}{result.p99_ms:>9.2f}"
            f"{result.cpu_us_per_request:>8.0f} us{result.requests:>10}{result.failed:>8}"
        )
    rates = {name: result.rps for name, result in results.items()}
    if "poll" in rates and "poll-db" in rates:
        rates["poll-mix"] = mixed_rate(results["poll"], results["poll-db"], database_share)
        say(f"{'poll-mix':<14}{rates['poll-mix']:>9.0f}   ({database_share:.0%} of polls read PostgreSQL)")
    say("")
    references_here = [name for name in REFERENCES if name in rates]
    say(f"{'ratio to':<14}" + "".join(f"{name:>14}" for name in references_here))
    for name in ("poll", "poll-db", "poll-mix", "heartbeat"):
        if name in rates:
            say(f"{name:<14}" + "".join(f"{rates[name] / rates[ref]:>14.1%}" for ref in references_here))
    say("")
    met_all = True
    for measured, reference in GOALS:
        if measured in rates and reference in rates:
            ratio = rates[measured] / rates[reference]
            met = ratio >= GOAL_RATIO
            met_all &= met
            label = f"goal: {measured} >= {GOAL_RATIO:.0%} of {reference} ASGI"
            say(f"{label:<40}{ratio:>7.1%}  ({'met' if met else 'NOT MET'})")
    failed = sum(result.failed for result in results.values())
    if failed:
        say(f"WARNING: {failed} requests failed (socket errors, timeouts or non-2xx answers); figures are suspect.")
    return met_all and not failed


# ----------------------------------------------------------------------------- profile


def profile_in_process(tenant: harness.Tenant, poll_path: str, requests: int) -> None:
    """Drive the hot path's ASGI callable in this process (same database and Redis, 32 concurrent
    tasks, no HTTP server) and print its CPU per request and where the poll's time goes."""
    import asyncio
    import cProfile
    import pstats
    import time

    from apps.kiosk_app.hot_path import KioskHotPath

    async def django(scope, receive, send):
        raise AssertionError(f"the hot path handed {scope['method']} {scope['path']} to Django")

    app = KioskHotPath(django)
    headers = [(b"host", b"127.0.0.1")] + [(k.lower().encode(), v.encode()) for k, v in tenant.device_headers.items()]

    async def send(message):
        if message["type"] == "http.response.start":
            assert message["status"] == 200, message

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def drive(path: str, method: str, count: int) -> None:
        scope = {"type": "http", "method": method, "path": path, "query_string": b"", "headers": headers}
        for _ in range(count):
            await app(dict(scope), receive, send)

    async def concurrently(path: str, method: str) -> None:
        await asyncio.gather(*(drive(path, method, requests // 32) for _ in range(32)))

    async def main() -> None:
        say("")
        say(f"profile: {requests} in-process requests per route through the hot path's ASGI callable")
        for name, path, method in (("poll", poll_path, "GET"), ("heartbeat", "/api/public/kiosks/heartbeat", "POST")):
            await drive(path, method, 50)  # warm the clients and caches
            cpu = time.process_time()
            await concurrently(path, method)
            say(f"  {name:<10} {(time.process_time() - cpu) / requests * 1e6:>6.0f} us of CPU per request")
        profiler = cProfile.Profile()
        profiler.enable()
        await concurrently(poll_path, "GET")
        profiler.disable()
        stats = pstats.Stats(profiler)
        say("  the poll's top functions by own time (us per request under the profiler, calls per request):")
        rows = sorted(stats.stats.items(), key=lambda item: item[1][2], reverse=True)[:15]
        for (filename, line, func), (_cc, calls, tottime, cumtime, _callers) in rows:
            where = filename.split("site-packages/")[-1].split(str(harness.ROOT) + "/")[-1]
            own, cumulative = tottime / requests * 1e6, cumtime / requests * 1e6
            say(f"    {own:>6.1f}  cum {cumulative:>7.1f}  {calls / requests:>5.1f}x  {where}:{line}({func})")

    asyncio.run(main())


# ----------------------------------------------------------------------------- main


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    loadgen.add_round_options(parser, db_name="kiosk_bench")
    parser.add_argument("--profile", action="store_true", help="also profile the hot path in this process")
    parser.add_argument("--profile-requests", type=int, default=4000)
    parser.add_argument("--check", action="store_true", help="exit 1 when the goal is not met")
    args = parser.parse_args()

    wrk = loadgen.require_wrk()
    # One kiosk is driven by every connection: lift its 600/min limit so the figures are not 429s.
    # The throttle still runs (and costs what it costs) on every request.
    extra = {"BENCH_ROUTES": "true", "THROTTLE_KIOSK": "1000000/s"}
    env = harness.BenchEnv(db_name=args.db_name, admin_url=args.admin_url, redis_url=args.redis_url, extra=extra)
    database_env = harness.BenchEnv(
        db_name=args.db_name,
        admin_url=args.admin_url,
        redis_url=args.redis_url,
        extra={**extra, "KIOSK_STATUS_COPY_SECONDS": "0"},
    )
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
        heartbeat_path = "/api/public/kiosks/heartbeat"
        say(f"kiosk {tenant.kiosk_id} paired; pending session {session.public_id}")
        with (
            harness.running_servers(env, 1) as (project,),
            harness.running_servers(database_env, 1) as (project_db,),
            references.running() as refs,
        ):
            for server in (project, project_db):
                status, body = fetch(f"{server.base_url}{poll_path}", tenant.device_headers)
                assert status == 200 and body["status"] == "pending", (status, body)
            say(f"the poll answers: {json.dumps(body)}")
            status, body = fetch(f"{project.base_url}{heartbeat_path}", tenant.device_headers, "POST")
            assert status == 200 and body == {"ok": True}, (status, body)
            device = tenant.device_headers
            targets = [target for target in refs.targets() if target.name in REFERENCES] + [
                Target("poll", f"{project.base_url}{poll_path}", project.process.pid, device),
                Target("poll-db", f"{project_db.base_url}{poll_path}", project_db.process.pid, device),
                Target("heartbeat", f"{project.base_url}{heartbeat_path}", project.process.pid, device, "POST"),
            ]
            results = loadgen.alternate(wrk, targets, args)
        copy_seconds = settings.KIOSK_STATUS_COPY_SECONDS
        database_share = min(1.0, 2 / copy_seconds) if copy_seconds else 1.0  # a poll every 2 s
        met = report(results, database_share)
        if args.profile:
            profile_in_process(tenant, poll_path, args.profile_requests)
        return 1 if args.check and not met else 0
    finally:
        harness.clean_up(env, keep_db=args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
