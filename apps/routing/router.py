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
  the least loaded, then the longest idle (`agent_order`);
- a free agent gets at most one offer, for the first session (accessible mode, then the oldest)
  it can take whose wave has room (`session_order`).
"""

from collections.abc import Iterable
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
        agent.idle_since,  # then the longest idle
        agent.id,
    )


def plan_offers(sessions: list[WaitingSession], agents: list[FreeAgent]) -> list[tuple[int, int]]:
    """The offers to make now, as (session id, agent id) pairs."""
    taken: set[int] = set()
    offers = []
    for session in sorted(sessions, key=session_order):
        if session.wave_room <= 0:
            continue
        candidates = [agent for agent in agents if agent.id not in taken and may_take(agent, session)]
        candidates.sort(key=lambda agent: agent_order(agent, session))
        for agent in candidates[: session.wave_room]:
            taken.add(agent.id)
            offers.append((session.id, agent.id))
    return offers
