"""Who is offered which waiting session: a pure function of the waiting sessions and the free
agents, so its rules are tested on their own (tests/sessions/test_router_properties.py, Hypothesis).

The rules (DESIGN.md section 5, issue 25 part 2):
- sessions are served oldest first; each holds up to its wave size K of live offers;
- an agent may take a session of its own owner or, with no owner, any owner's (the platform
  pool); the owner's own agents come first, then the platform's;
- it must speak the customer's language (primary subtag), unless the session has waited past
  its any-language time, or the agent has set no languages (it is offered every language);
- among those, agents not yet offered this session come first, then the longest idle;
- a free agent gets at most one offer, for the oldest session it can take whose wave has room.
"""

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class WaitingSession:
    id: int
    owner_id: int
    created_at: datetime
    language: str  # primary subtag of customer_locale, lower case
    any_language: bool  # waited past the owner's any-language time
    wave_room: int  # K minus the live offers it holds
    offered_before: frozenset[int] = field(default_factory=frozenset)  # agents it was offered to


@dataclass(frozen=True)
class FreeAgent:
    """An available, signed-in agent holding no session and no live offer."""

    id: int
    owner_id: int | None  # None: the platform pool
    languages: frozenset[str]
    idle_since: datetime


def primary_language(locale: str) -> str:
    return locale.replace("_", "-").split("-", 1)[0].lower()


def may_take(agent: FreeAgent, session: WaitingSession) -> bool:
    """Whether `agent` is in the session's pool and can be offered it now."""
    if agent.owner_id is not None and agent.owner_id != session.owner_id:
        return False
    return session.any_language or not agent.languages or session.language in agent.languages


def plan_offers(sessions: list[WaitingSession], agents: list[FreeAgent]) -> list[tuple[int, int]]:
    """The offers to make now, as (session id, agent id) pairs."""
    free = sorted(agents, key=lambda agent: (agent.idle_since, agent.id))
    taken: set[int] = set()
    offers = []
    for session in sorted(sessions, key=lambda session: (session.created_at, session.id)):
        if session.wave_room <= 0:
            continue
        candidates = [agent for agent in free if agent.id not in taken and may_take(agent, session)]
        candidates.sort(
            key=lambda agent: (
                agent.owner_id is None,  # the owner's agents before the platform's
                agent.id in session.offered_before,  # the next agents before those who missed it
                agent.idle_since,
                agent.id,
            )
        )
        for agent in candidates[: session.wave_room]:
            taken.add(agent.id)
            offers.append((session.id, agent.id))
    return offers
