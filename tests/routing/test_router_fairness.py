"""The router over a whole shift (Hypothesis): agents of one owner, signed in for the same hours,
serving customers who arrive at random, through the router's own plan (apps/routing/router.py)
tick by tick. Checked at every tick: never more than one video conversation or C sessions per
agent; no agent with room idle while a session it can take waits past one tick; oldest first.
Checked at the end: the fairness bound, the sessions the agents answered differ by at most one
plus the misses they let lapse (a miss by a third agent moves a customer too, so all of them).

What the shift holds constant, because the bound is about the router's turns and not about the
customers or the agents' speed:
- every session lasts as long (an agent given one long customer answers fewer, whatever the
  router does);
- a shift's customers are all video customers or all chats (with both, an agent held in a video
  conversation cannot take the video customers its colleague takes between two chats: two apart
  at the end of a short shift);
- of a wave, the agents answer in the order they were offered (an agent always quicker than its
  colleagues to answer a wave of three wins more of them);
- two sessions accepted in one tick end in the order they were accepted (real clocks never tie:
  the one who accepted first is idle first);
- breaks are hours not signed in, so the miss rule's break is not part of this shift; misses are
  (an offer an agent lets lapse goes to the next agent at once).
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from apps.routing.router import FreeAgent, WaitingSession, may_take, passed_over, plan_offers
from apps.sessions.seats import Held

T0 = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass
class Seat:
    video: bool
    conversation_until: int  # the tick its video conversation ends (it goes to payment)
    until: int  # the tick it ends
    within: float  # when in its tick it was accepted (0 to 1): no two clocks tie


@dataclass
class Agent:
    id: int
    idle_since: float
    held: list[Seat] = field(default_factory=list)
    answered: int = 0
    misses: int = 0

    def seats(self, tick: int) -> Held:
        return Held(len(self.held), any(seat.video and tick < seat.conversation_until for seat in self.held))


@dataclass
class Waiting:
    id: int
    arrived: int
    video: bool
    offered_before: set[int] = field(default_factory=set)


shift_strategy = st.fixed_dictionaries(
    {
        "agents": st.integers(2, 5),
        "capacity": st.integers(1, 3),
        "wave": st.integers(1, 3),
        "conversation": st.integers(1, 8),  # ticks in video before payment
        "paying": st.integers(0, 6),  # ticks in payment
        # Per tick, how many customers arrive.
        "arrivals": st.lists(st.integers(0, 3), min_size=10, max_size=60),
        "video": st.booleans(),  # the shift's customers are all video customers, or all chats
        # The offers (numbered in the order they are made) their agents let lapse.
        "lapses": st.sets(st.integers(0, 80), max_size=8),
    }
)


def _check_tick(tick, agents, waiting, capacity, wave, live) -> None:
    for agent in agents:
        seats = agent.seats(tick)
        assert seats.count <= capacity, agent
        assert sum(seat.video and tick < seat.conversation_until for seat in agent.held) <= 1, agent
    # After a routing run, an agent with room and no offer is left only when every session it
    # can take has its wave full: no session it can take waits past this tick.
    views = [_view(session, tick, wave, live) for session in waiting.values()]
    offered = {agent_id for agents_of in live.values() for agent_id in agents_of}
    for agent in agents:
        if agent.id in offered or agent.seats(tick).count >= capacity:
            continue
        free = _free(agent, tick, capacity)
        assert not any(view.wave_room > 0 and may_take(free, view) for view in views), (agent, tick)


def _view(session: Waiting, tick: int, wave: int, live: dict[int, list[int]]) -> WaitingSession:
    return WaitingSession(
        id=session.id,
        owner_id=1,
        created_at=T0 + timedelta(seconds=session.arrived),
        language="en",
        any_language=False,
        wave_room=wave - len(live.get(session.id, [])),
        live_offers=len(live.get(session.id, [])),
        offered_before=frozenset(session.offered_before),
        video=session.video,
    )


def _free(agent: Agent, tick: int, capacity: int) -> FreeAgent:
    return FreeAgent(
        id=agent.id,
        owner_id=1,
        languages=frozenset({"en"}),
        idle_since=T0 + timedelta(seconds=agent.idle_since),
        capacity=capacity,
        held=agent.seats(tick),
        answered=agent.answered,
    )


def _run(shift) -> list[Agent]:
    capacity, wave = shift["capacity"], shift["wave"]
    agents = [Agent(id=n + 1, idle_since=-n) for n in range(shift["agents"])]
    by_id = {agent.id: agent for agent in agents}
    waiting: dict[int, Waiting] = {}
    live: dict[int, list[int]] = {}  # session id: its offered agents, in the order offered
    offers_made = 0
    arrivals = shift["arrivals"]
    tick = 0
    while tick < len(arrivals) or waiting or any(agent.held for agent in agents):
        for agent in agents:  # sessions end; the agent is idle from now
            ended = [seat for seat in agent.held if seat.until <= tick]
            if ended:
                agent.held = [seat for seat in agent.held if seat.until > tick]
                agent.idle_since = tick + max(seat.within for seat in ended)
        for _ in range(arrivals[tick] if tick < len(arrivals) else 0):
            session_id = len(waiting) + 10_000 * tick + 1
            waiting[session_id] = Waiting(session_id, tick, shift["video"])
        # Last tick's offers: the first offered who answers takes it, the others are withdrawn.
        accepts = 0
        for session_id, offered in list(live.items()):
            answering = [agent_id for agent_id, number in offered if number not in shift["lapses"]]
            for agent_id, number in offered:
                by_id[agent_id].misses += number in shift["lapses"]
            del live[session_id]
            if answering:
                agent, session = by_id[answering[0]], waiting.pop(session_id)
                until = tick + shift["conversation"] + shift["paying"]  # a chat lasts as long
                accepts += 1
                agent.held.append(Seat(session.video, tick + shift["conversation"], until, accepts / 1000))
                agent.answered += 1
        # One routing run: every free agent with a seat, every waiting session.
        views = [_view(session, tick, wave, {}) for session in waiting.values()]
        free = [_free(agent, tick, capacity) for agent in agents if agent.seats(tick).count < capacity]
        plan = plan_offers(views, free)
        by_agent = {agent.id: agent for agent in free}
        assert not passed_over(plan, views, lambda agent_id, view: may_take(by_agent[agent_id], view))
        for session_id, agent_id in plan:
            live.setdefault(session_id, []).append((agent_id, offers_made))
            waiting[session_id].offered_before.add(agent_id)
            offers_made += 1
        _check_tick(tick, agents, waiting, capacity, wave, {s: [a for a, _ in o] for s, o in live.items()})
        tick += 1
        assert tick < 10_000  # every customer is served in the end
    return agents


@settings(max_examples=300, deadline=None)
@given(shift=shift_strategy)
def test_over_a_shift_agents_answer_within_one_plus_their_misses_of_each_other(shift):
    agents = _run(shift)
    answered = [agent.answered for agent in agents]
    # A miss moves a customer to another agent, so it can shift any two agents' counts.
    assert max(answered) - min(answered) <= 1 + sum(agent.misses for agent in agents), (agents, shift)
