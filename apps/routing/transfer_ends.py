"""How a transfer ends without its accept (apps/routing/transfer.py): withdrawn as its session
leaves `active`, or over once its last offer has lapsed or been withdrawn. Apart from transfer.py,
because the router's tick (offers.py) ends transfers too."""

from datetime import datetime

from django.db.models import QuerySet

from apps.core import events
from apps.routing.domain_events import OfferClosed, TransferLapsed
from apps.routing.models import Offer, OfferStatus
from apps.sessions.models import Session, SessionStatus


def live_transfer_offers(session: Session) -> QuerySet[Offer]:
    return Offer.objects.filter(session=session, status=OfferStatus.LIVE, transfer_from__isnull=False)


def transfers_withdraw(*, session: Session, reason: str, now: datetime) -> None:
    """In the transaction of a session leaving `active` (to payment, or ended): its transfer
    offers are withdrawn; the receivers drop their card (OfferClosed) and the sender, who keeps
    the session, hears that the transfer is over (TransferLapsed)."""
    live = list(live_transfer_offers(session).select_related("session"))
    if not live:
        return
    live_transfer_offers(session).update(status=OfferStatus.WITHDRAWN, closed_at=now)
    for offer in live:
        events.emit(OfferClosed(offer, reason=reason))
    if session.status == SessionStatus.PAYMENT:  # an ended session's agent needs no word of it
        events.emit(TransferLapsed(session, from_agent_id=live[0].transfer_from_id or 0, reason=reason))


def transfers_lapsed(closed: list[Offer]) -> None:
    """After the routing tick closed `closed` (lapsed or withdrawn offers): each transfer left
    with no live offer is over, and its sender, still serving, is told (TransferLapsed)."""
    sessions = {offer.session_id: offer for offer in closed if offer.transfer_from_id is not None}
    for session_id, offer in sessions.items():
        if Offer.objects.filter(session_id=session_id, status=OfferStatus.LIVE, transfer_from__isnull=False).exists():
            continue
        session = Session.objects.filter(pk=session_id, agent_id=offer.transfer_from_id).first()
        if session is not None and session.status == SessionStatus.ACTIVE:
            events.emit(TransferLapsed(session, from_agent_id=offer.transfer_from_id or 0, reason="no_answer"))
