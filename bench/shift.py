"""bench/shift: a simulated shift: is the wait a kiosk shows true, and is nobody answered before an
older customer the same agent could have taken?

A discrete-time simulation (0.5 s steps) of one owner's shift, running the service's own rules:
the router (apps.routing.router.plan_offers: waves of K by language and turn, longest idle
first, any language after W) and the estimate (apps.routing.queue.estimate_wait, fed what the
server reads: agents available and signed in, the mean time to answer an offer and mean handle
time of the last 20 sessions of the last hour, how long each busy agent has been in session).
No database: the rules are pure functions; their database side is tested in tests/routing.

The shift: customers arrive at random (Poisson, a lunch peak at twice the base rate); 80 % speak
English, 20 % Spanish; agents speak English, some Spanish too; an offer is answered after 2-6 s,
or, one time in 12, let lapse (T, then a miss; M misses set the agent on break for 1-2 minutes);
handle times are log-normal around a mean; after a session an agent takes a break (5-10 min)
one time in 15.

Measured, for every session that was answered:
- the estimate shown at its start (`estimated_wait_seconds` in its first status) against its
  actual wait: within +-25 % (goal: at least 80 % of sessions); and "as shown", the words the
  kiosk shows (static/kiosk/words.js aboutWait: under 45 s is "less than a minute", true when
  the customer is answered within 60 s; else "about N minutes", held to +-25 %);
- order: sessions answered through an offer that passed over an older waiting session the agent
  could take (router.passed_over: left with room in its wave and fewer offers than this one;
  goal 0: nobody was skipped); and, for information, answered while an older one still waited
  at all (its wave full with other agents, or not the agent's language yet).

    .venv/bin/python bench/shift.py [--hours 8] [--agents 10] [--seed 1] [--check]

With --capacity 1,3 it compares agents holding one session with agents holding several (one
video conversation, C in all) on the same arrivals and handle times (bench/shift_seats.py):
sessions per agent-hour, p90 answer time, abandoned share, the fewest agents that hold p90
answer <= 30 s and abandonment <= 2 % through the lunch peak, and the accessible-mode
customers' p95 answer time at the peak, with what their waits are made of (bench/shift_seats.py
WAIT_PARTS) and, where it is past its goal, how many agents bring it within.

    .venv/bin/python bench/shift.py --capacity 1,3 [--seeds 3] [--check]
"""

import argparse
import math
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("APP_ENV", "test")

import django  # noqa: E402

django.setup()

from apps.routing.queue import RECENT, RECENT_ANSWERS  # noqa: E402
from apps.routing.router import FreeAgent, WaitingSession, may_take, passed_over, plan_offers  # noqa: E402
from apps.routing.wait_estimate import Pool, estimate_wait  # noqa: E402

STEP = 0.5
K, T, W, M = 3, 15.0, 30.0, 2
GOAL_SHARE = 0.80
P90_GOAL, ABANDONED_GOAL, ACCESSIBLE_P95_GOAL = 30.0, 0.02, 30.0  # the capacity comparison's goals
TOLERANCE = 0.25


@dataclass
class Agent:
    id: int
    languages: frozenset[str]
    status: str = "available"  # available, busy, break
    idle_since: float = 0.0
    until: float = 0.0  # end of the session or the break
    serving_since: float = 0.0
    offer: int | None = None  # session id of its live offer
    offer_expires: float = 0.0
    answers_at: float | None = None  # None: it lets this offer lapse
    misses: int = 0
    skipped_for_this_offer: bool = False  # when offered, an older session it could take was passed over


@dataclass
class Customer:
    id: int
    created: float
    language: str
    estimate: int | None
    previous: int | None
    offered_before: set[int] = field(default_factory=set)
    waves: dict[float, int] = field(default_factory=dict)  # offers made, by the time they were made
    accepted: float | None = None


@dataclass
class Figures:
    answered: int = 0
    with_estimate: int = 0
    within: int = 0
    within_shown: int = 0
    queued: int = 0  # sessions shown an estimate of 45 s or more ("about N minutes")
    queued_within: int = 0
    previous_within: int = 0
    previous_shown: int = 0
    skipped: int = 0
    older_waiting: int = 0
    misses: int = 0
    errors: list[float] = field(default_factory=list)


def previous_estimate(position: int, pool: Pool, answer: float | None) -> int | None:
    """The estimate before this measurement (for comparison): the mean wait of recent sessions,
    plus, beyond the available agents, one mean handle time per round of the signed-in agents."""
    if answer is None or pool.signed_in == 0:
        return None
    beyond = max(0, position - pool.available)
    if beyond == 0:
        return round(answer)
    if pool.handle_seconds is None:
        return None
    return round(answer + math.ceil(beyond / pool.signed_in) * pool.handle_seconds)


def shown_true(estimate: int, actual: float) -> bool:
    if estimate < 45:
        return actual < 60
    return abs(estimate - actual) <= TOLERANCE * actual


class Shift:
    """One simulated shift; `run()` returns its figures."""

    def __init__(self, hours, agent_count, seed, base_rate, handle_mean):
        self.rng = random.Random(seed)
        self.agents = [
            Agent(id=n + 1, languages=frozenset({"en", "es"} if n % 3 == 0 else {"en"}), idle_since=-n)
            for n in range(agent_count)
        ]
        self.waiting: dict[int, Customer] = {}
        self.live: dict[int, int] = {}
        self.reactions: list[tuple[float, float, int]] = []  # (when, offer to accept, its wave's size)
        self.handled: list[tuple[float, float]] = []
        self.waits: list[tuple[float, float]] = []  # (when, start to accept)
        self.figures = Figures()
        self.end = hours * 3600
        self.base_rate = base_rate
        self.sigma = 0.35
        self.mu = math.log(handle_mean) - self.sigma**2 / 2

    def pool(self, now: float) -> Pool:
        recent_r = [(seconds, wave) for at, seconds, wave in self.reactions[-RECENT_ANSWERS:] if at >= now - 3600]
        recent_h = [seconds for at, seconds in self.handled[-RECENT:] if at >= now - 3600]
        busy = [agent for agent in self.agents if agent.status == "busy"]
        return Pool(
            available=sum(agent.status == "available" for agent in self.agents),
            signed_in=sum(agent.status in ("available", "busy") for agent in self.agents),
            answer_seconds=sum(seconds for seconds, _ in recent_r) / len(recent_r) if recent_r else None,
            handle_seconds=sum(recent_h) / len(recent_h) if recent_h else None,
            serving_for=tuple(now - agent.serving_since for agent in busy),
            answers=tuple(recent_r),
            free_languages=tuple(
                agent.languages for agent in self.agents if agent.status == "available" and agent.offer is None
            ),
            offer_size=K,
            handles=tuple(recent_h),
            available_languages=tuple(agent.languages for agent in self.agents if agent.status == "available"),
            any_language_after=W,
        )

    def drop_offer(self, agent: Agent) -> None:
        if agent.offer is not None:
            self.live[agent.offer] = self.live.get(agent.offer, 1) - 1
        agent.offer, agent.answers_at = None, None

    def run(self) -> Figures:
        now, next_id = 0.0, 1
        while now < self.end:
            peak = 2.0 if 4 * 3600 <= now < 5 * 3600 else 1.0  # lunch
            if self.rng.random() < self.base_rate * peak * STEP:
                language = "es" if self.rng.random() < 0.2 else "en"
                position, pool = len(self.waiting) + 1, self.pool(now)
                waits = [seconds for at, seconds in self.waits[-RECENT:] if at >= now - 3600]
                previous = previous_estimate(position, pool, sum(waits) / len(waits) if waits else None)
                self.waiting[next_id] = Customer(
                    next_id, now, language, estimate_wait(position, pool, language=language), previous
                )
                next_id += 1
            self.sessions_and_breaks_end(now)
            self.offers_answered_or_lapsed(now)
            self.dispatch(now)
            now += STEP
        return self.figures

    def sessions_and_breaks_end(self, now: float) -> None:
        for agent in self.agents:
            if agent.status == "busy" and agent.until <= now:
                self.handled.append((now, now - agent.serving_since))
                if self.rng.random() < 1 / 15:
                    agent.status, agent.until = "break", now + self.rng.uniform(300, 600)
                else:
                    agent.status, agent.idle_since = "available", now
            elif agent.status == "break" and agent.until <= now:
                agent.status, agent.idle_since, agent.misses = "available", now, 0

    def offers_answered_or_lapsed(self, now: float) -> None:
        for agent in self.agents:
            if agent.offer is None:
                continue
            session = self.waiting.get(agent.offer)
            if session is None:  # another agent of its wave took it
                self.drop_offer(agent)
            elif agent.answers_at is not None and agent.answers_at <= now:
                self.accept(agent, session, now)
            elif agent.offer_expires <= now:
                self.drop_offer(agent)
                self.figures.misses += 1
                agent.misses += 1
                if agent.misses >= M:
                    agent.status, agent.until = "break", now + self.rng.uniform(60, 120)

    def accept(self, agent: Agent, session: Customer, now: float) -> None:
        made_at = agent.offer_expires - T
        self.drop_offer(agent)
        older = [other for other in self.waiting.values() if other.created < session.created]
        skipped = agent.skipped_for_this_offer
        figures = self.figures
        figures.older_waiting += bool(older)
        figures.skipped += bool(skipped)
        del self.waiting[session.id]
        self.reactions.append((now, now - made_at, session.waves.get(made_at, 1)))
        agent.status, agent.misses, agent.serving_since = "busy", 0, now
        agent.until = now + self.rng.lognormvariate(self.mu, self.sigma)
        actual = now - session.created
        self.waits.append((now, actual))
        if session.previous is not None:
            figures.previous_within += abs(session.previous - actual) <= TOLERANCE * actual
            figures.previous_shown += shown_true(session.previous, actual)
        figures.answered += 1
        if session.estimate is not None:
            figures.with_estimate += 1
            figures.within += abs(session.estimate - actual) <= TOLERANCE * actual
            figures.within_shown += shown_true(session.estimate, actual)
            if session.estimate >= 45:
                figures.queued += 1
                figures.queued_within += abs(session.estimate - actual) <= TOLERANCE * actual
            figures.errors.append(session.estimate - actual)

    def waiting_view(self, session: Customer, now: float) -> WaitingSession:
        return WaitingSession(
            id=session.id,
            owner_id=1,
            created_at=session.created,  # type: ignore[arg-type]  # any ordered time will do here
            language=session.language,
            any_language=now - session.created >= W,
            wave_room=K - self.live.get(session.id, 0),
            live_offers=self.live.get(session.id, 0),
            offered_before=frozenset(session.offered_before),
        )

    def dispatch(self, now: float) -> None:
        sessions = [self.waiting_view(session, now) for session in self.waiting.values()]
        free = [
            FreeAgent(id=agent.id, owner_id=1, languages=agent.languages, idle_since=agent.idle_since)  # type: ignore[arg-type]
            for agent in self.agents
            if agent.status == "available" and agent.offer is None
        ]
        by_id = {agent.id: agent for agent in self.agents}
        plan = plan_offers(sessions, free)
        by_free = {agent.id: agent for agent in free}
        broken = {a for _, a, _ in passed_over(plan, sessions, lambda a, view: may_take(by_free[a], view))}
        for session_id, agent_id in plan:
            agent = by_id[agent_id]
            agent.skipped_for_this_offer = agent_id in broken
            agent.offer, agent.offer_expires = session_id, now + T
            answers = self.rng.random() >= 1 / 12
            agent.answers_at = now + self.rng.uniform(2, 6) if answers else None
            self.live[session_id] = self.live.get(session_id, 0) + 1
            self.waiting[session_id].offered_before.add(agent_id)
            waves = self.waiting[session_id].waves
            waves[now] = waves.get(now, 0) + 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hours", type=float, default=8.0)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--rate", type=float, default=1 / 30, help="arrivals per second outside the peak")
    parser.add_argument("--handle", type=float, default=100.0, help="mean handle time, seconds")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 unless both goals are met")
    parser.add_argument("--capacity", help="compare these capacities (e.g. 1,3) instead")
    args = parser.parse_args()
    if args.capacity:
        return compare_capacities(args)
    ok = True
    for seed in range(1, args.seeds + 1):
        f = Shift(args.hours, args.agents, seed, args.rate, args.handle).run()
        share = f.within / f.with_estimate if f.with_estimate else 0.0
        shown = f.within_shown / f.with_estimate if f.with_estimate else 0.0
        errors = sorted(abs(error) for error in f.errors)
        median = errors[len(errors) // 2] if errors else 0.0
        print(
            f"seed {seed}: {f.answered} answered, {f.with_estimate} with an estimate; "
            f"within +-25 %: {share:.0%}; as shown: {shown:.0%}; median error {median:.0f} s; "
            f"shown 'about N minutes': {f.queued}, of which within +-25 %: {f.queued_within}; "
            f"the previous estimate: within +-25 % {f.previous_within / max(1, f.with_estimate):.0%}, "
            f"as shown {f.previous_shown / max(1, f.with_estimate):.0%}; "
            f"skipped an older takeable session: {f.skipped}; answered while an older one waited: "
            f"{f.older_waiting}; missed offers: {f.misses}"
        )
        ok = ok and shown >= GOAL_SHARE and f.skipped == 0
    verdict = "met" if ok else "NOT met"
    print(f"goal: the estimate as shown true for >= {GOAL_SHARE:.0%} of sessions, nobody skipped: {verdict}")
    return 0 if ok or not args.check else 1


def compare_capacities(args: argparse.Namespace) -> int:
    from bench import shift_seats as seats

    capacities = [int(part) for part in args.capacity.split(",")]
    seeds = range(1, args.seeds + 1)
    customers = {seed: seats.arrivals(seed, args.hours, args.rate) for seed in seeds}
    print(
        f"{args.hours:g} h, {sum(map(len, customers.values())) / len(customers):.0f} customers a seed "
        f"({seats.CHAT_SHARE:.0%} chat, {seats.ACCESSIBLE_SHARE:.0%} accessible mode), seeds {list(seeds)}"
    )
    fewest: dict[int, int] = {}
    ok = True
    for capacity in capacities:
        count, results = seats.fewest_agents(customers, capacity, args.hours, P90_GOAL, ABANDONED_GOAL)
        fewest[capacity] = count
        for seed, r in results.items():
            accessible = seats.percentile(r.peak_accessible_answers, 95)
            print(
                f"capacity {capacity}, {count} agents, seed {seed}: {r.per_agent_hour:.1f} sessions per agent-hour; "
                f"answer p90 {r.p90:.1f} s (peak {r.peak_p90:.1f} s); abandoned {r.abandoned_share:.1%} "
                f"(peak {r.peak_abandoned_share:.1%}); accessible p95 at the peak {accessible:.1f} s "
                f"({len(r.peak_accessible_answers)} answered, {r.peak_accessible_abandoned} left); "
                f"sessions held per agent {r.held_seconds / (count * args.hours * 3600):.2f}, in video "
                f"{r.video_seconds / max(1.0, r.held_seconds):.0%} of serving time; "
                f"answered past a session ahead it could take: {r.skipped}; missed offers: {r.misses}; "
                f"answered per agent, most less fewest: {r.answered_spread}"
            )
            ok = ok and r.skipped == 0
        pooled = seats.percentile([s for r in results.values() for s in r.peak_accessible_answers], 95)
        print(f"capacity {capacity}, {count} agents: accessible mode p95 at the peak, seeds pooled: {pooled:.1f} s")
        print_wait_parts([parts for r in results.values() for parts in r.peak_accessible_parts], pooled)
        if pooled > ACCESSIBLE_P95_GOAL:
            print(f"  {accessible_staffing(customers, capacity, args.hours, count)}")
        ok = ok and pooled <= ACCESSIBLE_P95_GOAL
    print("fewest agents holding p90 answer <= 30 s and abandonment <= 2 % through the lunch peak, every seed:")
    for capacity in capacities:
        print(f"  capacity {capacity}: {fewest[capacity]}")
    if len(capacities) >= 2:
        first, last = fewest[capacities[0]], fewest[capacities[-1]]
        saving = 1 - last / first
        print(
            f"capacity {capacities[-1]} needs {last / first:.2f} x the agents of capacity {capacities[0]} "
            f"({saving:.0%} fewer; goal >= 20 % fewer): {'met' if saving >= 0.2 else 'NOT met'}"
        )
        ok = ok and saving >= 0.2
    print(f"goals (>= 20 % fewer, nobody skipped, accessible p95 <= 30 s): {'met' if ok else 'NOT met'}")
    return 0 if ok or not args.check else 1


def accessible_staffing(customers, capacity: int, hours: float, fewest: int, most_more: int = 4) -> str:
    """How many agents above the fewest bring the accessible-mode p95 at the peak within its goal."""
    from bench import shift_seats as seats

    for count in range(fewest + 1, fewest + most_more + 1):
        runs = [seats.SeatShift(arr, count, capacity, seed, hours).run() for seed, arr in customers.items()]
        pooled = seats.percentile([s for r in runs for s in r.peak_accessible_answers], 95)
        if pooled <= ACCESSIBLE_P95_GOAL:
            return f"with {count} agents: accessible mode p95 at the peak, seeds pooled, {pooled:.1f} s"
    return f"still past {ACCESSIBLE_P95_GOAL:g} s with {fewest + most_more} agents"


def print_wait_parts(waits: list[dict[str, float]], p95: float) -> None:
    """What the accessible-mode customers' waits at the peak are made of (shift_seats.WAIT_PARTS):
    all of them, and those at or past the p95."""
    from bench import shift_seats as seats

    def line(group: list[dict[str, float]]) -> str:
        total = sum(sum(parts.values()) for parts in group) or 1.0
        return "; ".join(
            f"{part} {sum(parts[part] for parts in group):.0f} s ({sum(parts[part] for parts in group) / total:.0%})"
            for part in seats.WAIT_PARTS
        )

    slowest = [parts for parts in waits if sum(parts.values()) >= p95]
    print(f"  their waits, {len(waits)} customers, {sum(sum(p.values()) for p in waits):.0f} s in all: {line(waits)}")
    print(f"  the {len(slowest)} at or past the p95: {line(slowest)}")
    for parts in sorted(slowest, key=lambda parts: -sum(parts.values())):
        shown = ", ".join(f"{part} {seconds:g}" for part, seconds in parts.items() if seconds)
        print(f"    {sum(parts.values()):.1f} s: {shown}")


if __name__ == "__main__":
    sys.exit(main())
