"""bench/shift --capacity: the same shift served by agents holding one session and by agents
holding several (one video conversation, C sessions in all), with the router's own functions
(apps.routing.router.plan_offers, may_take; apps.sessions.seats.has_room), checked in the run
with router.passed_over (nobody answered past a customer ahead the same agent could take).

Each customer's session has phases (the figures and where they come from, docs/scaling.md
"Capacity per agent"):
- ordering: a video conversation (the agent's video seat and a seat), log-normal, mean 100 s
  (bench/shift.py's handle time); a text chat instead (a seat, no video seat), mean 240 s, for
  CHAT_SHARE of the customers;
- paying: a seat (the session is in `payment`), 30-90 s on the reader (the issue's range; the
  demo reader answers a tap at once, so the time is the customer's);
- thank-you: the kiosk's thank-you screen (static/kiosk/settings.js thankYouSeconds, 30 s);
  holds no seat (a paid session is completed), so it is counted for the kiosk only.

Customers leave when not answered within their patience (log-normal, median 150 s, never past
the server's pending timeout SESSION_PENDING_TIMEOUT = 180 s; twice that in accessible mode, as
every kiosk time limit). Agents answer an offer after 2-6 s or, one time in 12, let it lapse
(T, then a miss; M misses in a row: a 1-2 minute break); after one session in 15 an agent takes
no more and, once it holds nothing, a 5-10 minute break.

Arrivals and every customer's durations are drawn once per seed and served by both capacities;
the agents' answers come from a second generator of the same seed.
"""

import math
import random
from dataclasses import dataclass, field, replace

from apps.routing.router import FreeAgent, WaitingSession, may_take, passed_over, plan_offers
from apps.sessions.seats import Held

STEP = 0.5
K, T, W, M = 3, 15.0, 30.0, 2
CHAT_SHARE = 0.2
ACCESSIBLE_SHARE = 0.1
ORDERING_MEAN, CHAT_MEAN, SIGMA = 100.0, 240.0, 0.35
PAYING = (30.0, 90.0)
THANK_YOU = 30.0
PENDING_TIMEOUT = 180.0
PATIENCE_MEDIAN, PATIENCE_SIGMA = 150.0, 0.5
PEAK = (4 * 3600.0, 5 * 3600.0)  # the lunch hour, at twice the base rate


@dataclass(frozen=True)
class Arrival:
    id: int
    at: float
    language: str
    video: bool
    accessible: bool
    ordering: float  # the video conversation, or the chat
    paying: float
    patience: float


def arrivals(seed: int, hours: float, base_rate: float) -> list[Arrival]:
    rng = random.Random(f"arrivals:{seed}")
    out: list[Arrival] = []
    now, end = 0.0, hours * 3600
    while now < end:
        peak = 2.0 if PEAK[0] <= now < PEAK[1] else 1.0
        if rng.random() < base_rate * peak * STEP:
            video = rng.random() >= CHAT_SHARE
            accessible = rng.random() < ACCESSIBLE_SHARE
            mean = ORDERING_MEAN if video else CHAT_MEAN
            limit = PENDING_TIMEOUT * (2 if accessible else 1)
            out.append(
                Arrival(
                    id=len(out) + 1,
                    at=now,
                    language="es" if rng.random() < 0.2 else "en",
                    video=video,
                    accessible=accessible,
                    ordering=rng.lognormvariate(math.log(mean) - SIGMA**2 / 2, SIGMA),
                    paying=rng.uniform(*PAYING),
                    patience=min(limit, rng.lognormvariate(math.log(PATIENCE_MEDIAN), PATIENCE_SIGMA)),
                )
            )
        now += STEP
    return out


@dataclass
class Seat:
    arrival: Arrival
    paying_from: float  # the end of the ordering phase (the video seat frees)
    ends: float  # the end of paying (the seat frees)


@dataclass
class Agent:
    id: int
    languages: frozenset[str]
    idle_since: float
    sessions: list[Seat] = field(default_factory=list)
    offer: int | None = None
    offer_expires: float = 0.0
    answers_at: float | None = None
    misses: int = 0
    break_until: float = 0.0
    wants_break: bool = False
    skipped: bool = False  # when offered, a session ahead in the line it could take was passed over
    answered: int = 0

    def held(self, now: float) -> Held:
        conversation = any(s.arrival.video and now < s.paying_from for s in self.sessions)
        return Held(len(self.sessions), conversation)


@dataclass
class Result:
    capacity: int
    agents: int
    hours: float
    arrived: int = 0
    answered: int = 0
    abandoned: int = 0
    skipped: int = 0
    misses: int = 0
    answers: list[float] = field(default_factory=list)
    peak_arrived: int = 0
    peak_abandoned: int = 0
    peak_answers: list[float] = field(default_factory=list)
    peak_accessible_answers: list[float] = field(default_factory=list)
    peak_accessible_abandoned: int = 0
    peak_accessible_parts: list[dict[str, float]] = field(default_factory=list)  # their waits by cause (WAIT_PARTS)
    answered_spread: int = 0  # the most any agent answered less the fewest (breaks included)
    held_seconds: float = 0.0  # sum over time of sessions held (for the mean concurrency)
    video_seconds: float = 0.0

    @property
    def per_agent_hour(self) -> float:
        return self.answered / (self.agents * self.hours)

    @property
    def p90(self) -> float:
        return percentile(self.answers, 90)

    @property
    def peak_p90(self) -> float:
        return percentile(self.peak_answers, 90)

    @property
    def abandoned_share(self) -> float:
        return self.abandoned / max(1, self.arrived)

    @property
    def peak_abandoned_share(self) -> float:
        return self.peak_abandoned / max(1, self.peak_arrived)

    def holds_peak(self, p90_goal: float, abandoned_goal: float) -> bool:
        return self.peak_p90 <= p90_goal and self.peak_abandoned_share <= abandoned_goal


# What an accessible-mode customer's wait is made of, step by step (SeatShift.wait_part): offers
# ringing, the one answered (the agent's 2-6 s) and those let lapse; free agents who could take it
# but for its language (before the any-language time); a free agent who could take it offered
# another (the line's rule broken: expected 0); and no agent free for it: one who could take it
# ringing for another customer (offered before this one came, or one ahead), else every seat
# taken (or on a break).
WAIT_PARTS = ("answering", "lapsing", "language", "not offered", "ringing for another", "all seats taken")


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return math.inf
    ordered = sorted(values)
    return ordered[max(1, min(len(ordered), math.ceil(pct / 100 * len(ordered)))) - 1]


def in_peak(arrival: Arrival) -> bool:
    return PEAK[0] <= arrival.at < PEAK[1]


class SeatShift:
    """One shift of `agent_count` agents of capacity `capacity` serving `customers`."""

    def __init__(self, customers: list[Arrival], agent_count: int, capacity: int, seed: int, hours: float):
        self.customers = customers
        self.capacity = capacity
        self.rng = random.Random(f"agents:{seed}")
        self.agents = [
            Agent(id=n + 1, languages=frozenset({"en", "es"} if n % 3 == 0 else {"en"}), idle_since=-n)
            for n in range(agent_count)
        ]
        self.waiting: dict[int, Arrival] = {}
        self.offered_before: dict[int, set[int]] = {}
        self.live: dict[int, int] = {}
        self.result = Result(capacity, agent_count, hours)
        self.end = hours * 3600
        self.parts: dict[int, dict[str, float]] = {}  # accessible-mode customers of the peak, while they wait

    def run(self) -> Result:
        pending = iter(self.customers)
        upcoming = next(pending, None)
        now = 0.0
        while now < self.end:
            while upcoming is not None and upcoming.at <= now:
                self.waiting[upcoming.id] = upcoming
                self.offered_before[upcoming.id] = set()
                self.result.arrived += 1
                self.result.peak_arrived += in_peak(upcoming)
                upcoming = next(pending, None)
            self.phases_end(now)
            self.customers_leave(now)
            self.offers_answered_or_lapsed(now)
            self.dispatch(now)
            for arrival in self.waiting.values():
                if arrival.accessible and in_peak(arrival):
                    part = self.wait_part(arrival, now)
                    parts = self.parts.setdefault(arrival.id, dict.fromkeys(WAIT_PARTS, 0.0))
                    parts[part] += STEP
            for agent in self.agents:
                held = agent.held(now)
                self.result.held_seconds += held.count * STEP
                self.result.video_seconds += held.in_conversation * STEP
            now += STEP
        answered = [agent.answered for agent in self.agents]
        self.result.answered_spread = max(answered) - min(answered)
        return self.result

    def phases_end(self, now: float) -> None:
        for agent in self.agents:
            before = len(agent.sessions)
            agent.sessions = [held for held in agent.sessions if held.ends > now]
            for _ in range(before - len(agent.sessions)):
                agent.idle_since = now
                agent.wants_break = agent.wants_break or self.rng.random() < 1 / 15
            if agent.wants_break and not agent.sessions and agent.offer is None:
                agent.wants_break, agent.break_until = False, now + self.rng.uniform(300, 600)

    def customers_leave(self, now: float) -> None:
        for arrival in [a for a in self.waiting.values() if now - a.at >= a.patience]:
            del self.waiting[arrival.id]
            self.result.abandoned += 1
            if in_peak(arrival):
                self.result.peak_abandoned += 1
                self.result.peak_accessible_abandoned += arrival.accessible

    def wait_part(self, arrival: Arrival, now: float) -> str:
        """What this step of the customer's wait is spent on (WAIT_PARTS; "answering" and
        "lapsing" are told apart at the accept: the answered offer's own time is "answering")."""
        if self.live.get(arrival.id, 0):
            return "lapsing"
        free = [view for agent in self.agents if (view := self.free(agent, now)) is not None]
        view = self.view(arrival, now)
        if any(may_take(agent, view) for agent in free):
            return "not offered"
        if free and any(may_take(agent, replace(view, any_language=True)) for agent in free):
            return "language"
        ringing = [agent for agent in self.agents if agent.offer is not None and agent.offer != arrival.id]
        if any(may_take(self.as_free(agent, now), view) for agent in ringing):
            return "ringing for another"
        return "all seats taken"

    def drop_offer(self, agent: Agent) -> None:
        if agent.offer is not None:
            self.live[agent.offer] = self.live.get(agent.offer, 1) - 1
        agent.offer, agent.answers_at = None, None

    def offers_answered_or_lapsed(self, now: float) -> None:
        for agent in self.agents:
            if agent.offer is None:
                continue
            arrival = self.waiting.get(agent.offer)
            if arrival is None:  # taken by another agent of its wave, or the customer left
                self.drop_offer(agent)
            elif agent.answers_at is not None and agent.answers_at <= now:
                made = agent.offer_expires - T
                self.drop_offer(agent)
                self.accept(agent, arrival, now)
                if (parts := self.parts.pop(arrival.id, None)) is not None:
                    answering = min(parts["lapsing"], now - made)  # the steps before it were other offers'
                    parts["answering"], parts["lapsing"] = answering, parts["lapsing"] - answering
                    self.result.peak_accessible_parts.append(parts)
            elif agent.offer_expires <= now:
                self.drop_offer(agent)
                self.result.misses += 1
                agent.misses += 1
                if agent.misses >= M:
                    agent.misses, agent.break_until = 0, now + self.rng.uniform(60, 120)

    def accept(self, agent: Agent, arrival: Arrival, now: float) -> None:
        del self.waiting[arrival.id]
        paying_from = now + arrival.ordering
        agent.sessions.append(Seat(arrival, paying_from, paying_from + arrival.paying))
        agent.misses = 0
        agent.answered += 1
        result, waited = self.result, now - arrival.at
        result.answered += 1
        result.skipped += agent.skipped
        result.answers.append(waited)
        if in_peak(arrival):
            result.peak_answers.append(waited)
            if arrival.accessible:
                result.peak_accessible_answers.append(waited)

    def view(self, arrival: Arrival, now: float) -> WaitingSession:
        return WaitingSession(
            id=arrival.id,
            owner_id=1,
            created_at=arrival.at,  # type: ignore[arg-type]  # any ordered time will do here
            language=arrival.language,
            any_language=now - arrival.at >= W,
            wave_room=K - self.live.get(arrival.id, 0),
            live_offers=self.live.get(arrival.id, 0),
            offered_before=frozenset(self.offered_before[arrival.id]),
            video=arrival.video,
            accessible_mode=arrival.accessible,
        )

    def free(self, agent: Agent, now: float) -> FreeAgent | None:
        """The agent as the router sees it, if it is available with a seat and no offer."""
        if agent.offer is not None or agent.break_until > now or agent.wants_break:
            return None
        if agent.held(now).count >= self.capacity:
            return None
        return self.as_free(agent, now)

    def as_free(self, agent: Agent, now: float) -> FreeAgent:
        held = agent.held(now)
        return FreeAgent(
            id=agent.id,
            owner_id=1,
            languages=agent.languages,
            idle_since=agent.idle_since,  # type: ignore[arg-type]
            capacity=self.capacity,
            held=held,
            answered=agent.answered,
        )

    @staticmethod
    def _could_take(free: dict[int, FreeAgent]):
        return lambda agent_id, view: may_take(free[agent_id], view)

    def dispatch(self, now: float) -> None:
        if not self.waiting:
            return
        views = {arrival.id: self.view(arrival, now) for arrival in self.waiting.values()}
        free = {view.id: view for agent in self.agents if (view := self.free(agent, now)) is not None}
        if not free:
            return
        plan = plan_offers(list(views.values()), list(free.values()))
        # Checked in the run: was a customer ahead of this one in the line, one this agent could
        # take, left with fewer offers (router.passed_over)?
        broken = {agent_id for _, agent_id, _ in passed_over(plan, list(views.values()), self._could_take(free))}
        by_id = {agent.id: agent for agent in self.agents}
        for session_id, agent_id in plan:
            agent = by_id[agent_id]
            agent.skipped = agent_id in broken
            agent.offer, agent.offer_expires = session_id, now + T
            answers = self.rng.random() >= 1 / 12
            agent.answers_at = now + self.rng.uniform(2, 6) if answers else None
            self.live[session_id] = self.live.get(session_id, 0) + 1
            self.offered_before[session_id].add(agent_id)


def fewest_agents(
    customers: dict[int, list[Arrival]], capacity: int, hours: float, p90_goal: float, abandoned_goal: float
) -> tuple[int, dict[int, Result]]:
    """The fewest agents that hold the peak goals on every seed (a binary search: more agents
    never answer later), with that run's results by seed."""

    def runs(count: int) -> dict[int, Result]:
        return {seed: SeatShift(arr, count, capacity, seed, hours).run() for seed, arr in customers.items()}

    def holds(results: dict[int, Result]) -> bool:
        return all(result.holds_peak(p90_goal, abandoned_goal) for result in results.values())

    low, high = 1, 4
    found = runs(high)
    while not holds(found):
        low, high = high + 1, high * 2
        found = runs(high)
    while low < high:
        middle = (low + high) // 2
        tried = runs(middle)
        if holds(tried):
            high, found = middle, tried
        else:
            low = middle + 1
    return high, found
