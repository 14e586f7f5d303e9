"""Each owner's routing settings: its RoutingSettings row, else the ROUTING_* defaults."""

from collections.abc import Collection
from dataclasses import dataclass, fields

from django.conf import settings

from apps.routing.models import RoutingSettings


@dataclass(frozen=True)
class Routing:
    offer_size: int  # K: agents offered a session at a time
    offer_seconds: int  # T: how long an offer lasts
    any_language_after_seconds: int  # W: waiting this long, any language qualifies
    misses_before_break: int  # M: missed offers in a row that set an agent on break
    self_service_after_seconds: int  # the kiosk offers self-service past this wait or estimate
    agents_start_on_break: bool  # signing in sets an offline agent on break, not available
    agent_capacity: int  # C: sessions each agent holds at once (apps/sessions/seats.py)


FIELD_NAMES = tuple(field.name for field in fields(Routing))

# What the panel's form allows (and the service checks): a wave of 1..50 agents, offers of
# 5 s..5 min, and so on; 0 misses would break an agent before it was ever offered anything.
LIMITS = {
    "offer_size": (1, 50),
    "offer_seconds": (5, 300),
    "any_language_after_seconds": (0, 3600),
    "misses_before_break": (1, 20),
    "self_service_after_seconds": (0, 3600),
    "agent_capacity": (1, 10),
}


def defaults() -> Routing:
    """The environment's: each field's default is the setting ROUTING_<FIELD>."""
    return Routing(**{name: getattr(settings, f"ROUTING_{name.upper()}") for name in FIELD_NAMES})


def _from_row(row: RoutingSettings) -> Routing:
    values = {name: getattr(row, name) for name in FIELD_NAMES}
    values["agent_capacity"] = row.agent_capacity or settings.ROUTING_AGENT_CAPACITY  # null: the default
    return Routing(**values)


def routing_for_owner(owner_id: int | None) -> Routing:
    """Platform agents (no owner) follow the defaults."""
    row = None if owner_id is None else RoutingSettings.objects.filter(owner_id=owner_id).first()
    return defaults() if row is None else _from_row(row)


def owner_capacity(owner_id: int | None) -> int:
    """C of the owner's agents without their own (apps/sessions/seats.py reads it through its hook)."""
    return routing_for_owner(owner_id).agent_capacity


def stored_capacity(owner_id: int) -> int | None:
    """The owner's own C, None when it uses ROUTING_AGENT_CAPACITY (the panel's form shows it)."""
    row = RoutingSettings.objects.filter(owner_id=owner_id).values_list("agent_capacity", flat=True).first()
    return row


def routing_for_owners(owner_ids: Collection[int]) -> dict[int, Routing]:
    """Every owner in `owner_ids` with its settings, in one query."""
    rows = {row.owner_id: _from_row(row) for row in RoutingSettings.objects.filter(owner_id__in=set(owner_ids))}
    fallback = defaults()
    return {owner_id: rows.get(owner_id, fallback) for owner_id in owner_ids}
