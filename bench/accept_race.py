"""bench/accept_race: 100 agents accept one session at the same instant over HTTP, 20 rounds.

Runs against the production configuration: PostgreSQL, Redis and the web server of the Procfile
(daphne) on a loopback port. Each round a kiosk starts a session over REST, every agent (signed in
through POST /api/login, holding its own keep-alive connection) fires POST /api/sessions/{id}/accept
after a shared barrier, and the winner ends the session so the next round starts clean.

Prints winners per round (must be exactly 1 every round), p50/p99 accept latency, and as the
reference measured in the same run, the same 100-way burst against a bare Django JSON view
(GET /bench/ping, with the same agents' session cookies) on the same server, with the ratio of
the two and the goal (accept p99 <= 1.5x the GET's). `--check` exits 1 unless every round had
exactly one winner and the goal is met.

    .venv/bin/python bench/accept_race.py [--agents 100] [--rounds 20] [--check]
"""

import argparse
import sys
import threading
import time
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import percentile, say  # noqa: E402

PASSWORD = "bench-password-123"
GOAL_P99_RATIO = 1.5  # an accept's p99 at most this times a bare GET's, under the same burst


def make_agents(tenant: harness.Tenant, count: int) -> list[str]:
    from django.contrib.auth.hashers import make_password

    from apps.accounts.models import User

    hashed = make_password(PASSWORD)  # hash once: creating 100 users should not take a minute
    users = User.objects.bulk_create(
        User(
            email=f"bench-agent-{n}@example.com",
            name=f"Agent {n}",
            password=hashed,
            is_agent=True,
            agent_status="available",
            owner_id=tenant.owner_id,
        )
        for n in range(count)
    )
    return [user.email for user in users]


def signed_in_session(base_url: str, email: str) -> requests.Session:
    http = requests.Session()
    assert http.get(f"{base_url}/api/csrf-cookie", timeout=30).status_code == 204
    response = http.post(
        f"{base_url}/api/login",
        json={"email": email, "password": PASSWORD, "remember": False},
        headers={"X-XSRF-TOKEN": http.cookies["XSRF-TOKEN"]},
        timeout=60,
    )
    assert response.status_code == 200, response.text
    return http


def _error_code(response: requests.Response) -> str:
    try:
        return response.json().get("error", {}).get("code", "")
    except ValueError:  # not our envelope: show what it was
        return response.text[:80]


def burst(sessions: list[requests.Session], method: str, url: str) -> list[tuple[int, str, float]]:
    """Every client sends one request after a shared barrier; (status, error code, seconds) each."""
    barrier = threading.Barrier(len(sessions))
    results: list = [None] * len(sessions)

    def fire(index: int) -> None:
        http = sessions[index]
        headers = {"X-XSRF-TOKEN": http.cookies.get("XSRF-TOKEN", "")}
        barrier.wait(timeout=60)
        started = time.perf_counter()
        response = http.request(method, url, headers=headers, timeout=60)
        elapsed = time.perf_counter() - started
        code = _error_code(response) if response.status_code >= 400 else ""
        results[index] = (response.status_code, code, elapsed)

    threads = [threading.Thread(target=fire, args=(n,)) for n in range(len(sessions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--db-name", default="kiosk_bench_accept")
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL)
    parser.add_argument("--redis-url", default=harness.DEFAULT_REDIS_URL)
    parser.add_argument("--check", action="store_true", help="exit 1 unless every round had exactly one winner")
    args = parser.parse_args()

    env = harness.BenchEnv(
        db_name=args.db_name,
        admin_url=args.admin_url,
        redis_url=args.redis_url,
        cache_prefix="kiosk-bench-accept",
        # Plain-HTTP loopback: the cookies may not be Secure, or the client would never send them back.
        extra={
            "BENCH_ROUTES": "true",
            "SESSION_COOKIE_SECURE": "false",
            "THROTTLE_KIOSK": "1000000/s",
            "THROTTLE_AGENT": "1000000/s",
        },
    )
    harness.create_database(env)
    try:
        harness.setup_django(env)
        harness.clear_redis_prefix(env)
        from django.db import connections

        tenant = harness.make_tenant()
        emails = make_agents(tenant, args.agents)
        connections.close_all()

        with harness.running_servers(env, 1) as (server,):
            base = server.base_url
            say(f"signing in {len(emails)} agents over HTTP ...")
            agents = [signed_in_session(base, email) for email in emails]
            kiosk = requests.Session()
            kiosk.headers.update(tenant.device_headers)

            winners_per_round, accept_latencies, reference_latencies, bad = [], [], [], []
            for number in range(1, args.rounds + 1):
                started = kiosk.post(
                    f"{base}/api/public/sessions/start",
                    json={"device_id": tenant.device_id, "customer_locale": "en-US"},
                    timeout=30,
                )
                assert started.status_code == 201, started.text
                session_id = started.json()["session_id"]

                results = burst(agents, "POST", f"{base}/api/sessions/{session_id}/accept")
                winners = [n for n, (status, _, _) in enumerate(results) if status == 200]
                unexpected = [(s, c) for s, c, _ in results if s != 200 and (s, c) != (409, "SESSION_ALREADY_ACCEPTED")]
                winners_per_round.append(len(winners))
                bad.extend(unexpected)
                accept_latencies.extend(elapsed for _, _, elapsed in results)
                say(
                    f"round {number:>2}: {len(winners)} winner(s), {len(results) - len(winners)} x 409"
                    + (f", unexpected {unexpected[:3]}" if unexpected else "")
                )

                reference_latencies.extend(elapsed for _, _, elapsed in burst(agents, "GET", f"{base}/bench/ping"))
                for index in winners:
                    http = agents[index]
                    ended = http.post(
                        f"{base}/api/sessions/{session_id}/end",
                        json={"reason": "completed", "notes": ""},
                        headers={"X-XSRF-TOKEN": http.cookies["XSRF-TOKEN"]},
                        timeout=30,
                    )
                    assert ended.status_code == 200, ended.text

        say("")
        say(f"{args.agents} agents x {args.rounds} rounds, one daphne process, PostgreSQL + Redis, loopback")
        say(f"winners per round: {winners_per_round}")
        say(f"{'':<22}{'p50 ms':>10}{'p99 ms':>10}")
        for name, values in (("accept (POST)", accept_latencies), ("reference (GET ping)", reference_latencies)):
            say(f"{name:<22}{percentile(values, 50) * 1000:>10.1f}{percentile(values, 99) * 1000:>10.1f}")
        ratio = percentile(accept_latencies, 99) / percentile(reference_latencies, 99)
        met = ratio <= GOAL_P99_RATIO
        say(f"accept p99 / reference p99: {ratio:.2f}x  (goal: <= {GOAL_P99_RATIO}x: {'met' if met else 'NOT MET'})")
        exact = all(count == 1 for count in winners_per_round) and not bad
        say("every round had exactly one winner" if exact else "FAILED: a round did not have exactly one winner")
        return 0 if (exact and met) or not args.check else 1
    finally:
        harness.clean_up(env)


if __name__ == "__main__":
    sys.exit(main())
