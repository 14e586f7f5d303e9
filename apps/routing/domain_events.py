"""What happens in routing (apps.core.events): offers made and closed, an owner's line moving,
transfers. None has a webhook (the spec's event list is closed); the real-time bodies are in
realtime_messages.py."""

from apps.core.events import Event, OwnerOf
from apps.routing.models import Offer
from apps.sessions.domain_events import _SessionEvent


class SessionTransferred(_SessionEvent):
    """A colleague took the active session over (apps/routing/transfer.py): `session.agent` is
    the receiver now. No webhook: the spec's event list is closed and session.accepted is sent
    once; the Assignment rows keep who served it when (docs/decisions/routing.md, "Transfer")."""

    from_agent_id: int = 0
    offered_agent_ids: tuple[int, ...] = ()  # the other receivers of the wave, whose offer it withdrew


class TransferLapsed(_SessionEvent):
    """A transfer ended with nobody taking the session: its sender keeps it. `reason`:
    `no_answer` (every offer lapsed or was withdrawn), `session_in_payment`, or `cancelled` (the
    sender took it back)."""

    from_agent_id: int = 0
    reason: str = "no_answer"


class _OfferEvent(Event):
    offer: Offer
    owner_id = OwnerOf("offer.session.owner_id")


class OfferMade(_OfferEvent):
    """An agent is offered a waiting session until the offer's expiry (apps/routing/offers.py)."""


class OfferClosed(_OfferEvent):
    """An agent's live offer ended without the agent accepting it: it lapsed (`offer_expired`)
    or was withdrawn (`agent_unavailable`, `accepted_elsewhere`). Ends of offers caused by the
    session being accepted or ended are told by SessionAccepted and SessionEnded."""

    reason: str


class QueueChanged(Event):
    """The waiting line of an owner's kiosks moved (a session joined or left it, or its agents
    changed): every waiting kiosk of the owner has a new `queue` (apps/routing/queue.py)."""

    owner_id: int
