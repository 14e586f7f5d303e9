"""Who is offered which waiting session: a pure function of the waiting sessions and the free
agents, so its rules are tested on their own (tests/routing/test_router_properties.py, Hypothesis).

The rules (DESIGN.md section 5):
- sessions in the kiosk's accessible mode are served first, then the others, oldest first
  within each; each holds up to its wave size K of live offers;
- an agent may take a session of its own owner or, with no owner, any owner's (the platform
  pool); the owner's own agents come first, then the platform's;
- it must speak the customer's language (primary subtag), unless the session has waited past
  its any-language time, or no agent of its pool at work (available or busy, signed in) speaks
  that language: then waiting is for nobody, and every language qualifies at once; an agent
  with no languages set is offered every language;
- it must have a seat for it (apps/sessions/seats.py): a video session needs an agent in no
  video conversation, any session one holding fewer than its capacity C;
- among those, agents not yet offered this session come first, then those holding nothing, then
  the least loaded, then those who took the fewest sessions this shift, then the longest idle
  (`agent_order`);
- a free agent gets at most one offer; offers go one at a time: an accessible-mode session's
  wave first, then the session holding the fewest live offers, the first in the line
  (`session_order`: accessible mode, then the oldest) among equals, so that every other waiting
  session's first offer comes before any wave's second (`wave_order`, `plan_offers`).
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime

from apps.sessions.seats import Held, has_room


@dataclass(frozen=True)
class WaitingSession:
    id: int
    owner_id: int
    created_at: datetime
    language: str  # primary subtag of customer_locale, lower case
    any_language: bool  # waited past the owner's any-language time, or nobody_speaks its language
    wave_room: int  # K minus the live offers it holds
    live_offers: int = 0  # the live offers it holds: a wave's next offer waits for the line's first ones
    offered_before: frozenset[int] = field(default_factory=frozenset)  # agents it was offered to
    video: bool = True  # a video customer (else a text chat): needs an agent in no video conversation
    accessible_mode: bool = False


@dataclass(frozen=True)
class FreeAgent:
    """An available, signed-in agent with a seat free and no live offer."""

    id: int
    owner_id: int | None  # None: the platform pool
    languages: frozenset[str]
    idle_since: datetime
    capacity: int = 1  # C: sessions it may hold at once
    held: Held = Held()  # what it holds now
    answered: int = 0  # sessions it took in the fairness window (ROUTING_FAIRNESS_HOURS): turns even out


@dataclass(frozen=True)
class AtWorkAgent:
    """A signed-in agent at work (available or busy), free or serving or holding an offer."""

    owner_id: int | None
    languages: frozenset[str]


def primary_language(locale: str) -> str:
    return locale.replace("_", "-").split("-", 1)[0].lower()


def in_pool(agent_owner_id: int | None, session_owner_id: int) -> bool:
    """The owner's own agents and the platform's (no owner) serve the owner's sessions."""
    return agent_owner_id is None or agent_owner_id == session_owner_id


def speaks(languages: frozenset[str], language: str) -> bool:
    """An agent with no languages set is offered every language."""
    return not languages or language in languages


def nobody_speaks(owner_id: int, language: str, at_work: Iterable[AtWorkAgent]) -> bool:
    """No agent of the owner's pool at work speaks `language`: a session in it waits for nobody,
    so it is offered in any language at once. A speaker who is busy, or holds another offer, is
    worth the wait up to the any-language time; one on break or signed out is not."""
    return not any(in_pool(agent.owner_id, owner_id) and speaks(agent.languages, language) for agent in at_work)


def may_take(agent: FreeAgent, session: WaitingSession) -> bool:
    """Whether `agent` is in the session's pool, has a seat for it and can be offered it now."""
    if not in_pool(agent.owner_id, session.owner_id):
        return False
    if not has_room(capacity=agent.capacity, held=agent.held, video=session.video):
        return False
    return session.any_language or speaks(agent.languages, session.language)


def session_order(session: WaitingSession) -> tuple[object, ...]:
    """Which waiting session is served first: one in the kiosk's accessible mode (the customer may
    not see the screen, and a person is their way through it), then the oldest. The mode is read
    at every routing pass, so a customer who turns it on while waiting moves up at the next."""
    return (not session.accessible_mode, session.created_at, session.id)


def agent_order(agent: FreeAgent, session: WaitingSession) -> tuple[object, ...]:
    """Which of the agents who may take `session` is offered it first."""
    return (
        agent.owner_id is None,  # the owner's agents before the platform's
        agent.id in session.offered_before,  # the next agents before those who missed it
        agent.held.count,  # those holding nothing, then the least loaded
        agent.answered,  # then those who took the fewest this shift (the fairness bound)
        agent.idle_since,  # then the longest idle
        agent.id,
    )


def wave_order(session: WaitingSession, made: int) -> tuple[object, ...]:
    """Which open wave gets the next offer of a plan that has made `made` of this session's: an
    accessible-mode session's whole wave first (its customer may not see the screen, and its offer
    left ringing must not wait behind every other customer's first), then the session holding
    the fewest live offers, then the line (`session_order`)."""
    return (not session.accessible_mode, session.live_offers + made, session_order(session))


def plan_offers(sessions: list[WaitingSession], agents: list[FreeAgent]) -> list[tuple[int, int]]:
    """The offers to make now, as (session id, agent id) pairs: one at a time, each to the first
    open wave (`wave_order`) that a free agent can take, and to the first of those agents. So,
    accessible mode aside, every waiting session's first offer comes before any wave's
    second: a wave's spare offers never take the agent a younger customer would otherwise lack
    (the loser of the wave's race would answer nobody, the fairness bound's case)."""
    free = list(agents)
    made: dict[int, int] = {}  # offers of this plan, by session
    open_sessions = sorted((session for session in sessions if session.wave_room > 0), key=session_order)
    offers = []
    while free and open_sessions:
        open_sessions.sort(key=lambda session: wave_order(session, made.get(session.id, 0)))
        for session in open_sessions:
            candidates = [agent for agent in free if may_take(agent, session)]
            if candidates:
                break
        else:
            break
        agent = min(candidates, key=lambda candidate: agent_order(candidate, session))
        free.remove(agent)
        made[session.id] = made.get(session.id, 0) + 1
        offers.append((session.id, agent.id))
        if made[session.id] >= session.wave_room:
            open_sessions.remove(session)
    return offers


def passed_over(
    plan: list[tuple[int, int]], sessions: list[WaitingSession], could_take: Callable[[int, WaitingSession], bool]
) -> list[tuple[int, int, int]]:
    """The line rule stated on a plan's result, for the property tests and bench/shift.py to check
    any plan against: an offer that is its session's n-th live offer is made only when every
    session ahead in the line that the agent could take (`could_take(agent id, session)`), and
    that still has room in its wave after the plan, holds at least n offers. So nobody waits
    without an offer while a younger customer the same agent could take is offered to it. The
    offers that broke it, as (session id, agent id, the session passed over)."""
    by_id = {session.id: session for session in sessions}
    after = {session.id: session.live_offers for session in sessions}
    for session_id, _ in plan:
        after[session_id] += 1
    made: dict[int, int] = {}
    broken = []
    for session_id, agent_id in plan:
        session = by_id[session_id]
        made[session_id] = made.get(session_id, 0) + 1
        nth = session.live_offers + made[session_id]
        for ahead in sessions:
            room = ahead.wave_room - (after[ahead.id] - ahead.live_offers)
            ahead_in_line = session_order(ahead) < session_order(session)
            if ahead_in_line and room > 0 and could_take(agent_id, ahead) and after[ahead.id] < nth:
                broken.append((session_id, agent_id, ahead.id))
    return broken
