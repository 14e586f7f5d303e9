"""Show to customer, point at an item and read the cart aloud: while an agent serves a session,
the agent may open a menu item large on the kiosk (`MenuItemShown` on the kiosk's channel) or
have the kiosk speak the cart and its total (`CartReadAloud`), and the customer may point at an
item (`MenuItemPointed` on the agent's channel).

Nothing changes and nothing is recorded: these are not domain events (no row, no webhook), the
service checks who may say it and about which item, then broadcasts after commit like every
other real-time message (docs/decisions/kiosk-app.md "Show to customer and point at item")."""

from apps.accounts.models import User
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.menu import selectors as menu_selectors
from apps.menu.models import MenuItem
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import agent_channel, kiosk_channel
from apps.sessions import selectors
from apps.sessions.models import ENDED_STATUSES, Session, SessionStatus

SERVED = (SessionStatus.ACTIVE, SessionStatus.PAYMENT)


def _served(session: Session) -> None:
    """Only while an agent serves (active or in payment) is there anyone to show or point to."""
    if session.status in ENDED_STATUSES:
        raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
    if session.status not in SERVED:
        raise DomainError(ErrorCode.INVALID_STATE, "No agent is serving this session yet.")


def _held_by(session: Session, agent: User) -> None:
    """A session handed to a colleague is theirs to speak through: 403 for its former agent."""
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "A colleague serves this session now.")


def _menu_item(session: Session, item_id: int) -> MenuItem:
    """An active item of the session's business's active menu; any other is a validation error
    (the same answer for another business's item and one that does not exist)."""
    item = menu_selectors.items_for_order(business_id=session.business_id, item_ids={item_id}).get(item_id)
    if item is None or not item.active:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "The item is not on this business's menu.",
            details={"item_id": ["No such item on the menu of this session's business."]},
        )
    return item


def show_item(*, agent: User, public_id: str, item_id: int) -> tuple[Session, MenuItem]:
    """The agent holding the session opens `item_id` large on the kiosk."""
    session = selectors.session_accepted_by_agent(agent=agent, public_id=public_id)
    _served(session)
    _held_by(session, agent)
    item = _menu_item(session, item_id)
    body = {"session_id": session.public_id, "item_id": str(item.pk)}
    broadcast([kiosk_channel(session.kiosk_id)], "MenuItemShown", body)
    return session, item


def read_cart_aloud(*, agent: User, public_id: str) -> Session:
    """The agent serving the session has the kiosk speak the cart and its total in the customer's
    language (for a customer who may not see the screen; the kiosk speaks it whether or not its
    accessible mode is on). The kiosk speaks the cart it shows, so the message carries no cart."""
    session = selectors.session_accepted_by_agent(agent=agent, public_id=public_id)
    _served(session)
    _held_by(session, agent)
    broadcast([kiosk_channel(session.kiosk_id)], "CartReadAloud", {"session_id": session.public_id})
    return session


def point_at_item(*, kiosk: Kiosk, public_id: str, item_id: int) -> tuple[Session, MenuItem]:
    """The customer points at `item_id`: the serving agent's dashboard says so, with the item's
    name in the menu's own language (the agent's)."""
    session = selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id)
    _served(session)
    item = _menu_item(session, item_id)
    assert session.agent_id is not None  # served: an agent accepted it
    body = {"session_id": session.public_id, "item_id": str(item.pk), "name": item.name}
    broadcast([agent_channel(session.agent_id)], "MenuItemPointed", body)
    return session, item
