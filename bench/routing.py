"""bench/routing: the router in process, on PostgreSQL and Redis.

1. Messages per session with --many agents (default 5,000) signed in and available: a kiosk
   starts a session, the router offers it, one offered agent accepts, the session ends; every
   real-time message to an agent channel is counted (SessionIncoming, SessionClaimed,
   SessionWithdrawn). Goal: at most 4 x K per session (ringing everyone was about 2 x agents).
2. Start to first offer, p99, with --pool agents (default 1,000) signed in, against the same
   with 1 agent, in the same run (goal: at most 1.5x). Jobs run at commit in the caller
   (TASK_MODE=sync), so the time measured is the start's transaction plus the router's dispatch.

The simulated shift (the wait estimate, the order of answers) is bench/shift.py.

    .venv/bin/python bench/routing.py [--many 5000] [--pool 1000] [--sessions 50] [--check]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import harness  # noqa: E402
from harness import percentile, say  # noqa: E402

GOAL_MESSAGES_PER_K = 4
GOAL_P99_RATIO = 1.5


def make_agents(owner_id: int, count: int, tag: str) -> list[int]:
    from django.utils import timezone

    from apps.accounts.models import User

    now = timezone.now()
    users = User.objects.bulk_create(
        User(
            email=f"bench-{tag}-{n}@example.com",
            name=f"Agent {n}",
            password="!",
            is_agent=True,
            agent_status="available",
            owner_id=owner_id,
            last_seen_at=now,
            idle_since=now,
            languages=["en"],
        )
        for n in range(count)
    )
    return [user.pk for user in users]


def keep_signed_in(agent_ids: list[int]) -> None:
    from django.utils import timezone

    from apps.accounts.models import User

    User.objects.filter(pk__in=agent_ids).update(last_seen_at=timezone.now())


class MessageCounter:
    """Counts agent-channel deliveries of every broadcast (the broadcast API's send)."""

    def __init__(self):
        self.agent_deliveries = 0

    def __call__(self, message: dict) -> None:
        self.agent_deliveries += sum(1 for channel in message["channels"] if channel.startswith("private-agent."))


def run_sessions(tenant, agent_ids: list[int], sessions: int) -> list[float]:
    """Start, accept (an offered agent) and end `sessions` sessions; start-to-offer seconds each."""
    from apps.kiosks.models import Kiosk
    from apps.routing.models import Offer
    from apps.sessions import ending, services

    kiosk = Kiosk.objects.get(pk=tenant.kiosk_id)
    latencies = []
    for _ in range(sessions):
        keep_signed_in(agent_ids)
        started = time.perf_counter()
        session = services.session_start(kiosk=kiosk, customer_locale="en-US")
        offered = Offer.objects.filter(session=session).select_related("agent").first()
        latencies.append(time.perf_counter() - started)
        assert offered is not None, "nobody was offered the session"
        services.session_accept(public_id=session.public_id, agent=offered.agent)
        ending.session_end(public_id=session.public_id, agent=offered.agent, reason="completed", notes="")
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--many", type=int, default=5000)
    parser.add_argument("--pool", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--db-name", default="kiosk_bench_routing")
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL)
    parser.add_argument("--redis-url", default=harness.DEFAULT_REDIS_URL)
    parser.add_argument("--check", action="store_true", help="exit 1 unless both goals are met")
    args = parser.parse_args()
    env = harness.BenchEnv(
        db_name=args.db_name,
        admin_url=args.admin_url,
        redis_url=args.redis_url,
        cache_prefix="kiosk-bench-routing",
        extra={"TASK_MODE": "sync", "LOG_LEVEL": "WARNING"},
    )
    harness.create_database(env)
    try:
        harness.setup_django(env)
        harness.clear_redis_prefix(env)
        from django.conf import settings

        from apps.realtime import broadcast

        counter = MessageCounter()
        broadcast.send_now = counter  # count instead of sending: nobody listens in process
        k = settings.ROUTING_OFFER_SIZE

        many = harness.make_tenant()
        many_agents = make_agents(many.owner_id, args.many, "many")
        counter.agent_deliveries = 0
        run_sessions(many, many_agents, args.sessions)
        per_session = counter.agent_deliveries / args.sessions
        say(f"messages to agents per session, {args.many} agents signed in, K={k}: {per_session:.1f}")
        say(f"  goal <= {GOAL_MESSAGES_PER_K} x K = {GOAL_MESSAGES_PER_K * k}; ringing everyone: ~{2 * args.many}")

        pool, single = harness.make_tenant(), harness.make_tenant()
        pool_agents = make_agents(pool.owner_id, args.pool, "pool")
        single_agents = make_agents(single.owner_id, 1, "single")
        pooled, alone = [], []
        for _ in range(args.sessions // 10 or 1):  # interleaved, so both see the same machine
            pooled += run_sessions(pool, pool_agents, 10)
            alone += run_sessions(single, single_agents, 10)
        p99_pool, p99_alone = percentile(pooled, 99) * 1000, percentile(alone, 99) * 1000
        ratio = p99_pool / p99_alone
        say(f"start to first offer p50/p99: {args.pool} agents {percentile(pooled, 50) * 1000:.1f}/{p99_pool:.1f} ms")
        say(f"                              1 agent {percentile(alone, 50) * 1000:.1f}/{p99_alone:.1f} ms")
        say(f"  ratio of p99s: {ratio:.2f}x (goal <= {GOAL_P99_RATIO}x)")
        ok = per_session <= GOAL_MESSAGES_PER_K * k and ratio <= GOAL_P99_RATIO
        return 0 if ok or not args.check else 1
    finally:
        harness.clean_up(env)


if __name__ == "__main__":
    sys.exit(main())
