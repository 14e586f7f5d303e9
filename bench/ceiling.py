"""The ceiling study: our stack against the servers it cannot beat, in one alternating run.

Starts, each on its own daphne process on loopback: the project (the Procfile's `web` line against
a throwaway PostgreSQL database and Redis), a raw ASGI callable and a minimal Django project
(bench/references.py). Then alternates short wrk rounds (keep-alive, -c32) over:

  raw            the raw ASGI callable                          (the server's ceiling)
  django-async   minimal Django (startproject), async view
  django-sync    minimal Django (startproject), sync view
  ping           our GET /bench/ping: a sync Django view through our whole stack
  poll           our kiosk status poll, GET /api/public/sessions/{id}/status (cached copy)
  heartbeat      our kiosk heartbeat, POST /api/public/kiosks/heartbeat

and prints req/s, p50/p99 latency and the server's CPU per request of each, then each goal it
measures and whether it is met:

  kiosk hot path   poll and heartbeat >= 30 % of raw ASGI
  per-request tax  ping >= 80 % of the minimal Django sync view (ping is a sync view, so it is
                   compared with the sync one; the async one is shown alongside)

    .venv/bin/python bench/ceiling.py [--rounds 6] [--duration 4] [--only raw,ping] [--check]

The machine may be shared: compare figures only inside one run. docs/scaling.md has the figures.
"""

import argparse
import sys

import harness
import loadgen
import references
from harness import say
from references import Target

GOALS = (
    # (label, measured target, reference target, minimum ratio)
    ("kiosk hot path: status poll / raw ASGI", "poll", "raw", 0.30),
    ("kiosk hot path: heartbeat / raw ASGI", "heartbeat", "raw", 0.30),
    ("per-request tax: ping / minimal Django sync view", "ping", "django-sync", 0.80),
)
INFORMATIONAL = (
    ("/bench/ping / minimal Django async view", "ping", "django-async"),
    ("minimal Django sync view / raw ASGI", "django-sync", "raw"),
    ("/bench/ping / raw ASGI", "ping", "raw"),
)


def project_targets(server: harness.Server, tenant: harness.Tenant, poll_path: str) -> list[Target]:
    pid = server.process.pid
    return [
        Target("ping", f"{server.base_url}/bench/ping", pid),
        Target("poll", f"{server.base_url}{poll_path}", pid, headers=tenant.device_headers),
        Target("heartbeat", f"{server.base_url}/api/public/kiosks/heartbeat", pid, tenant.device_headers, "POST"),
    ]


def report(results: dict[str, loadgen.WrkResult]) -> bool:
    say("")
    say(f"{'':<14}{'req/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'CPU/req':>11}{'requests':>10}{'failed':>8}")
    for result in results.values():
        say(
            f"{result.name:<14}{result.rps:>9.0f}{result.p50_ms:>9.2f}{result.p99_ms:>9.2f}"
            f"{result.cpu_us_per_request:>8.0f} us{result.requests:>10}{result.failed:>8}"
        )
    say("")
    met_all = True
    for label, measured, reference, minimum in GOALS:
        if measured in results and reference in results:
            ratio = results[measured].rps / results[reference].rps
            met = ratio >= minimum
            met_all &= met
            say(f"{label:<52}{ratio:>7.1%}  (goal >= {minimum:.0%}: {'met' if met else 'NOT MET'})")
    for label, measured, reference in INFORMATIONAL:
        if measured in results and reference in results:
            say(f"{label:<52}{results[measured].rps / results[reference].rps:>7.1%}")
    failed = sum(result.failed for result in results.values())
    if failed:
        say(f"WARNING: {failed} requests failed (socket errors, timeouts or non-2xx answers); figures are suspect.")
    return met_all and not failed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    loadgen.add_round_options(parser, db_name="kiosk_bench_ceiling")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is not met")
    args = parser.parse_args()

    wrk = loadgen.require_wrk()
    # One kiosk is driven by every connection: lift its 600/min limit so the figures are not 429s.
    # The throttle still runs (and costs what it costs) on every request.
    extra = {"BENCH_ROUTES": "true", "THROTTLE_KIOSK": "1000000/s"}
    env = harness.BenchEnv(db_name=args.db_name, admin_url=args.admin_url, redis_url=args.redis_url, extra=extra)
    env.cache_prefix = "kiosk-bench-ceiling"
    harness.create_database(env)
    try:
        harness.setup_django(env)
        harness.clear_redis_prefix(env)
        from django.db import connections

        from apps.kiosks.models import Kiosk
        from apps.sessions.services import session_start

        tenant = harness.make_tenant()
        session = session_start(kiosk=Kiosk.objects.get(pk=tenant.kiosk_id), customer_locale="en-US")
        connections.close_all()
        poll_path = f"/api/public/sessions/{session.public_id}/status"
        with harness.running_servers(env, 1) as (project,), references.running() as refs:
            targets = refs.targets() + project_targets(project, tenant, poll_path)
            results = loadgen.alternate(wrk, targets, args, "raw ASGI, minimal Django, the project")
        met = report(results)
        return 1 if args.check and not met else 0
    finally:
        harness.clean_up(env, keep_db=args.keep_db)


if __name__ == "__main__":
    sys.exit(main())
