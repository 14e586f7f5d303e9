"""What happens to a session (apps.core.events). Each event holds the session as the transition
left it; the webhook payloads are in webhook_payloads.py, the real-time bodies in realtime_messages.py."""

from dataclasses import dataclass

from apps.core.events import Event
from apps.sessions import webhook_payloads
from apps.sessions.models import Offer, Session


@dataclass(frozen=True)
class _SessionEvent(Event):
    session: Session

    @property
    def owner_id(self) -> int:
        return self.session.owner_id


@dataclass(frozen=True)
class SessionStarted(_SessionEvent):
    """A kiosk opened a pending session: agents hear of it, the owner gets `session.started`."""

    webhook_name = "session.started"

    def webhook_payload(self) -> webhook_payloads.SessionStartedPayload:
        return webhook_payloads.session_started(self.session)


@dataclass(frozen=True)
class SessionAccepted(_SessionEvent):
    """An agent won the session."""

    webhook_name = "session.accepted"
    offered_agent_ids: tuple[int, ...] = ()  # the other agents whose offer it withdrew

    def webhook_payload(self) -> webhook_payloads.SessionAcceptedPayload:
        return webhook_payloads.session_accepted(self.session)


@dataclass(frozen=True)
class SessionEnded(_SessionEvent):
    """The session ended in any way; `was_pending`: nobody had accepted it yet."""

    was_pending: bool = False
    offered_agent_ids: tuple[int, ...] = ()  # agents whose live offer of it it withdrew
    webhook_name = "session.ended"

    def webhook_payload(self) -> webhook_payloads.SessionEndedPayload:
        return webhook_payloads.session_ended(self.session)


@dataclass(frozen=True)
class SessionTransferred(_SessionEvent):
    """A colleague took the active session over (apps/sessions/transfer.py): `session.agent` is
    the receiver now. No webhook: the spec's event list is closed and session.accepted is sent
    once; the Assignment rows keep who served it when (docs/decisions.md, issue 25 part 5)."""

    from_agent_id: int = 0
    offered_agent_ids: tuple[int, ...] = ()  # the other receivers of the wave, whose offer it withdrew


@dataclass(frozen=True)
class TransferLapsed(_SessionEvent):
    """A transfer ended with nobody taking the session: its sender keeps it. `reason`:
    `no_answer` (every offer lapsed or was withdrawn), `session_in_payment`, or `cancelled` (the
    sender took it back)."""

    from_agent_id: int = 0
    reason: str = "no_answer"


@dataclass(frozen=True)
class SessionMoved(_SessionEvent):
    """An open-to-open transition (to payment and back): only the kiosk hears of it."""


@dataclass(frozen=True)
class OfferMade(Event):
    """An agent is offered a waiting session until the offer's expiry (apps/sessions/offers.py)."""

    offer: Offer

    @property
    def owner_id(self) -> int:
        return self.offer.session.owner_id


@dataclass(frozen=True)
class OfferClosed(Event):
    """An agent's live offer ended without the agent accepting it: it lapsed (`offer_expired`)
    or was withdrawn (`agent_unavailable`, `accepted_elsewhere`). Ends of offers caused by the
    session being accepted or ended are told by SessionAccepted and SessionEnded."""

    offer: Offer
    reason: str

    @property
    def owner_id(self) -> int:
        return self.offer.session.owner_id


@dataclass(frozen=True)
class QueueChanged(Event):
    """The waiting line of an owner's kiosks moved (a session joined or left it, or its agents
    changed): every waiting kiosk of the owner has a new `queue` (apps/sessions/queue.py)."""

    owner_id: int


@dataclass(frozen=True)
class CustomerLocaleChanged(_SessionEvent):
    """The customer chose another language during the session (the kiosk's language buttons):
    `session.customer_locale` is the new one. No webhook (the spec's event list is closed): the
    serving agent and the agents holding an offer of it hear it (CustomerLocaleChanged)."""
