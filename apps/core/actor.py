"""Who is acting, as domain services see it: one small value each surface builds from its own
authentication (a panel user's session, an owner API key's token, an agent), so no
surface's types reach the services. `may_act_for` is the one rule for "may this actor do that
for this owner" (docs/decisions/structure.md, "Layers")."""

from dataclasses import dataclass

PANEL_USER = "panel_user"
API_KEY = "api_key"
AGENT = "agent"
DISPLAY = "display"  # a wall screen's display token (apps/displays)

# What an owner's people (or keys) may do to its data through the domain services. The owner
# API's scopes have these names (apps/owner_api/scopes.py).
ORDERS_WRITE = "orders:write"
REFUNDS_WRITE = "refunds:write"


@dataclass(frozen=True)
class Actor:
    owner_id: int | None  # None: belongs to no owner (staff), so acts for none
    who: str  # PANEL_USER, API_KEY, AGENT or DISPLAY
    scopes: frozenset[str] = frozenset()
    user_id: int | None = None  # the person (panel user, agent), for records such as created_by


def may_act_for(actor: Actor, owner_id: int, scope: str) -> bool:
    """The actor belongs to this owner and holds the scope. Services answer another owner's
    object as not found (404), so ids do not tell which tenants exist."""
    return actor.owner_id is not None and actor.owner_id == owner_id and scope in actor.scopes
