"""Which users act for an owner, and the actor value a surface builds for a signed-in user."""

from apps.accounts.models import PanelRole, User
from apps.core.actor import AGENT, ORDERS_WRITE, PANEL_USER, REFUNDS_WRITE, Actor

# Owners and managers alike; the owner-only pages (billing, agents, webhooks, API keys) are the
# panel's own rule (apps/panel/access.py).
PANEL_SCOPES = frozenset({ORDERS_WRITE, REFUNDS_WRITE})


def panel_member(user: User) -> bool:
    """An owner or manager of an owner, active, not an agent: who may use the owner panel (and its
    real-time channels) and act for that owner there."""
    return display_member(user) and user.panel_role != PanelRole.KITCHEN


def display_member(user: User) -> bool:
    """An owner, manager or kitchen user of an owner, active, not an agent: who may open the
    owner's kitchen display and order board (apps/displays) with a signed-in session."""
    return bool(
        user.is_active and not user.is_agent and user.panel_role in PanelRole.values and user.owner_id is not None
    )


def user_actor(user: User) -> Actor:
    """A panel member holds PANEL_SCOPES; anyone else (agents, disabled users, staff) none."""
    if user.is_agent:
        return Actor(owner_id=user.owner_id, who=AGENT, user_id=user.pk)
    scopes = PANEL_SCOPES if panel_member(user) else frozenset()
    return Actor(owner_id=user.owner_id, who=PANEL_USER, scopes=scopes, user_id=user.pk)
