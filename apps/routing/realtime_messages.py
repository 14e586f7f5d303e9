"""The real-time messages of routing (docs/realtime.md): subscribers of config/event_subscribers.py,
or called by routing's own subscribers of session events (apps/routing/offers.py). Built at emit;
the broadcast API sends them after commit, so a change that rolls back tells nobody.

Agents hear only of the sessions offered to them (apps/routing/offers.py): SessionIncoming when
an offer is made, SessionClaimed or SessionWithdrawn when it ends without their accept."""

from collections.abc import Iterable

from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import agent_channel, call_channel, kiosk_channel, owner_channel
from apps.routing.domain_events import OfferClosed, OfferMade, SessionTransferred, TransferLapsed
from apps.routing.models import Offer, OfferStatus
from apps.sessions.bodies import incoming_session_body
from apps.sessions.domain_events import AccessibleModeChanged, CustomerLocaleChanged
from apps.sessions.models import Session


def session_incoming(event: OfferMade, recorded: DomainEvent | None = None) -> None:
    """To the agent offered the session: the offer, as GET /api/sessions/incoming lists it."""
    offer = event.offer
    body = incoming_session_body(
        offer.session, now=offer.created_at, offer_expires_at=offer.expires_at, transfer_from=offer.transfer_from
    )
    broadcast([agent_channel(offer.agent_id)], "SessionIncoming", {"session": body})


def session_claimed(session: Session, offered_agent_ids: Iterable[int]) -> None:
    """The session was accepted: the winner's dashboard has its answer; every other agent whose
    offer of it the accept withdrew drops its card."""
    channels = [agent_channel(agent_id) for agent_id in offered_agent_ids if agent_id != session.agent_id]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "agent_id": str(session.agent_id)}
        broadcast(channels, "SessionClaimed", body)


def session_withdrawn(session: Session, offered_agent_ids: Iterable[int]) -> None:
    """A session that ended while still waiting is withdrawn from the dashboards it was offered
    to. (An active one's transfer offers are withdrawn as it ends, each told by OfferClosed.)"""
    channels = [agent_channel(agent_id) for agent_id in offered_agent_ids]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "reason": session.end_reason}
        broadcast(channels, "SessionWithdrawn", body)


def offer_withdrawn(event: OfferClosed, recorded: DomainEvent | None = None) -> None:
    """An offer lapsed (`offer_expired`) or was withdrawn while the session still waits: the
    agent drops the card (the session's status is still `pending`)."""
    offer = event.offer
    body = {"session_id": offer.session.public_id, "status": offer.session.status, "reason": event.reason}
    broadcast([agent_channel(offer.agent_id)], "SessionWithdrawn", body)


def session_transferred(event: SessionTransferred, recorded: DomainEvent | None = None) -> None:
    """Both agents of a transfer and the kiosk hear who serves the session now (the kiosk also
    gets SessionStatusChanged, whose `agent` names the receiver); the wave's other receivers drop
    their card (SessionClaimed, as for a waiting session another agent took)."""
    session = event.session
    agent = session.agent
    body = {
        "session_id": session.public_id,
        "status": session.status,
        "from_agent_id": str(event.from_agent_id),
        "agent": None if agent is None else {"id": str(agent.pk), "name": agent.name},
    }
    channels = [agent_channel(event.from_agent_id), kiosk_channel(session.kiosk_id)]
    if session.agent_id is not None:
        channels.append(agent_channel(session.agent_id))
    broadcast(channels, "SessionTransferred", body)
    others = [agent_channel(agent_id) for agent_id in event.offered_agent_ids]
    if others:
        claimed = {"session_id": session.public_id, "status": session.status, "agent_id": str(session.agent_id)}
        broadcast(others, "SessionClaimed", claimed)


def customer_locale_changed(event: CustomerLocaleChanged, recorded: DomainEvent | None = None) -> None:
    """The customer's new language, to the agent serving the session and to every agent holding an
    offer of it (a waiting customer's card, or a transfer's): their dashboards say it at once."""
    session = event.session
    told = set(Offer.objects.filter(session=session, status=OfferStatus.LIVE).values_list("agent_id", flat=True))
    if session.agent_id is not None:
        told.add(session.agent_id)
    if told:
        body = {"session_id": session.public_id, "customer_locale": session.customer_locale}
        broadcast([agent_channel(agent_id) for agent_id in sorted(told)], "CustomerLocaleChanged", body)


def offer_accessible_mode_changed(event: AccessibleModeChanged, recorded: DomainEvent | None = None) -> None:
    """The customer turned the kiosk's accessible mode on or off while waiting: every agent holding
    an offer of the session hears it (OfferAccessibleModeChanged), so its offer card says it before
    the accept. The serving agent hears SessionUpdated instead (apps/agent_app)."""
    session = event.session
    offered = sorted(
        set(Offer.objects.filter(session=session, status=OfferStatus.LIVE).values_list("agent_id", flat=True))
    )
    if offered:
        body = {"session_id": session.public_id, "accessible_mode": session.accessible_mode}
        broadcast([agent_channel(agent_id) for agent_id in offered], "OfferAccessibleModeChanged", body)


def call_members_changed(event: SessionTransferred, recorded: DomainEvent | None = None) -> None:
    """The call's agent changed: everyone on the call channel is dropped from it and told
    CallMembershipChanged; the kiosk and the new agent are signed again, the old agent is refused
    (apps/realtime_http/access.py), so it hears and sends nothing more there."""
    session = event.session
    agent_id = None if session.agent_id is None else str(session.agent_id)
    body = {"session_id": session.public_id, "reason": "transferred", "agent_id": agent_id}
    broadcast([call_channel(session.public_id)], "CallMembershipChanged", body, revoke=True)


def transfer_lapsed(event: TransferLapsed, recorded: DomainEvent | None = None) -> None:
    """Nobody took the transfer: its sender keeps the session and is told why."""
    body = {"session_id": event.session.public_id, "status": event.session.status, "reason": event.reason}
    broadcast([agent_channel(event.from_agent_id)], "TransferLapsed", body)


def queue_board_changed(event: Event, recorded: DomainEvent | None = None) -> None:
    """To the owner's presence channel (panel users; kiosks, quiet members, hear nothing there):
    the line or its agents moved, so the panel's Queue page reloads its board. No body: the board
    is read from the server, scoped to the signed-in user's owner."""
    owner_id = event.owner_id
    if owner_id is not None:  # a platform agent belongs to no one owner's board
        broadcast([owner_channel(owner_id)], "QueueBoardChanged", {})
