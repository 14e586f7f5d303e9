"""Agents' seats as routing reads them in bulk: each agent's capacity C (its own, else its
owner's, else ROUTING_AGENT_CAPACITY) and what it holds (apps/sessions/seats.py has the rule)."""

from collections.abc import Sequence
from dataclasses import dataclass

from apps.accounts.models import User
from apps.routing.routing_settings import defaults, routing_for_owners
from apps.sessions.seats import Held, held_by


@dataclass(frozen=True)
class Seats:
    capacity: int
    held: Held


def capacities(rows: Sequence[tuple[int, int | None, int | None]]) -> dict[int, int]:
    """C of each (agent id, own capacity, owner id), with one query for the owners' settings."""
    owners = routing_for_owners({owner_id for _, own, owner_id in rows if not own and owner_id is not None})
    fallback = defaults().agent_capacity
    return {
        agent_id: own or (owners[owner_id].agent_capacity if owner_id is not None else fallback)
        for agent_id, own, owner_id in rows
    }


def seats_of(agent_ids: list[int]) -> dict[int, Seats]:
    """Each agent's capacity and what it holds (GET /api/user, the supervisor's view, the router)."""
    rows = list(User.objects.filter(pk__in=agent_ids).values_list("pk", "agent_capacity", "owner_id"))
    capacity = capacities(rows)
    held = held_by([pk for pk, _, _ in rows])
    return {pk: Seats(capacity[pk], held.get(pk, Held())) for pk, _, _ in rows}


def capacity_and_held(agent: User) -> tuple[int, int]:
    """(capacity, sessions held) of one agent (apps/accounts/seats_hook.py)."""
    seat = seats_of([agent.pk]).get(agent.pk)
    return (seat.capacity, seat.held.count) if seat else (defaults().agent_capacity, 0)
