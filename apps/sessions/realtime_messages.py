"""The real-time messages of session events (docs/realtime.md): subscribers of
config/event_subscribers.py. Built at emit, from the session as the transition left it; the
broadcast API sends them after commit, so a change that rolls back tells nobody.

Agents hear only of the sessions offered to them (apps/sessions/offers.py): SessionIncoming when
an offer is made, SessionClaimed or SessionWithdrawn when it ends without their accept."""

from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import agent_channel, kiosk_channel
from apps.sessions.bodies import incoming_session_body, status_body
from apps.sessions.domain_events import OfferClosed, OfferMade, SessionAccepted, SessionEnded
from apps.sessions.queue import queue_of


def session_status_changed(event, recorded: DomainEvent | None = None) -> None:
    """To the kiosk, after every transition: the body of GET /api/public/sessions/{id}/status."""
    session = event.session
    body = dict(status_body(session, queue=queue_of(session)))  # the broadcast API takes a plain dict
    broadcast([kiosk_channel(session.kiosk_id)], "SessionStatusChanged", body)


def session_incoming(event: OfferMade, recorded: DomainEvent | None = None) -> None:
    """To the agent offered the session: the offer, as GET /api/sessions/incoming lists it."""
    offer = event.offer
    body = incoming_session_body(offer.session, now=offer.created_at, offer_expires_at=offer.expires_at)
    broadcast([agent_channel(offer.agent_id)], "SessionIncoming", {"session": body})


def session_claimed(event: SessionAccepted, recorded: DomainEvent | None = None) -> None:
    """The winner's dashboard has its answer; every other agent holding an offer of the session
    drops its card."""
    session = event.session
    channels = [agent_channel(agent_id) for agent_id in event.offered_agent_ids if agent_id != session.agent_id]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "agent_id": str(session.agent_id)}
        broadcast(channels, "SessionClaimed", body)


def session_withdrawn(event: SessionEnded, recorded: DomainEvent | None = None) -> None:
    """A session that ends while still waiting is withdrawn from the dashboards it was offered to."""
    if not event.was_pending:
        return
    session = event.session
    channels = [agent_channel(agent_id) for agent_id in event.offered_agent_ids]
    if channels:
        body = {"session_id": session.public_id, "status": session.status, "reason": session.end_reason}
        broadcast(channels, "SessionWithdrawn", body)


def offer_withdrawn(event: OfferClosed, recorded: DomainEvent | None = None) -> None:
    """An offer lapsed (`offer_expired`) or was withdrawn while the session still waits: the
    agent drops the card (the session's status is still `pending`)."""
    offer = event.offer
    body = {"session_id": offer.session.public_id, "status": offer.session.status, "reason": event.reason}
    broadcast([agent_channel(offer.agent_id)], "SessionWithdrawn", body)
