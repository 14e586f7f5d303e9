"""Routing's state changes that start the router on commit, and its subscribers of session events
(config/event_subscribers.py): sessions does not call routing; routing hears, inside the
transaction of each session change, what it has to settle (docs/decisions/structure.md "Routing is its own
app"):
- SessionAccepted: the winner's offer is accepted, the others withdrawn (SessionClaimed);
- SessionEnded: its transfer and its live offers are withdrawn (SessionWithdrawn if it waited);
- SessionMoved: a transfer of a session leaving `active` is withdrawn; a customer paying alone
  leaves the line (its offers withdrawn), one taking the payment back rejoins it; an agent's
  session moving to payment frees its video seat (the router runs).
"""

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.routing import realtime_messages
from apps.routing.agent_presence import agents_mark_seen
from apps.routing.domain_events import OfferClosed, QueueChanged
from apps.routing.models import Offer, OfferStatus, RoutingSettings
from apps.routing.offers import close_offer
from apps.routing.routing_settings import FIELD_NAMES, LIMITS, Routing, routing_for_owner
from apps.routing.tasks import dispatch_soon
from apps.routing.transfer_ends import transfers_lapsed, transfers_withdraw
from apps.sessions.domain_events import SessionAccepted, SessionEnded, SessionMoved
from apps.sessions.models import Session, SessionStatus


def dispatch_on(event: Event, recorded: DomainEvent | None = None) -> None:
    """Subscriber of the changes that can free an agent or add a waiting session."""
    dispatch_soon()


def session_accepted(event: SessionAccepted, recorded: DomainEvent | None = None) -> None:
    """Subscriber: the accept's offers settled; the agents it took the session from drop its card."""
    session = event.session
    agent = session.agent
    if agent is None:  # an accepted session has its agent
        return
    others = offers_settle_accept(session=session, agent=agent, now=session.accepted_at or timezone.now())
    realtime_messages.session_claimed(session, others)


def session_ended(event: SessionEnded, recorded: DomainEvent | None = None) -> None:
    """Subscriber: an ended session's transfer and offers are withdrawn; the agents offered a
    session that ended waiting drop its card."""
    session = event.session
    now = session.ended_at or timezone.now()
    transfers_withdraw(session=session, reason="session_ended", now=now)
    withdrawn = offers_settle_end(session=session, now=now)
    if event.was_pending:
        realtime_messages.session_withdrawn(session, withdrawn)


def session_moved(event: SessionMoved, recorded: DomainEvent | None = None) -> None:
    """Subscriber of the open-to-open moves (to payment and back)."""
    session = event.session
    now = timezone.now()
    if session.status != SessionStatus.ACTIVE:  # a transfer is only of an active session
        transfers_withdraw(session=session, reason="session_in_payment", now=now)
    if session.status == SessionStatus.PAYMENT and session.agent_id is None:  # the customer pays alone
        offers_withdraw_session(session=session, now=now, reason="customer_paying")
        events.emit(QueueChanged(owner_id=session.owner_id))
    elif session.status == SessionStatus.PENDING:  # back in its old place in line
        dispatch_soon()
        events.emit(QueueChanged(owner_id=session.owner_id))
    elif session.agent_id is not None:
        # To payment: the agent's video seat is free, so it is offered the oldest video customer
        # it can take at once; back from payment: its offer of a video customer is withdrawn.
        dispatch_soon()


def agent_polled(agent: User) -> None:
    """The incoming poll, or the authorisation of its own channel (its dashboard connecting):
    the agent is signed in, and offered the oldest session it can take at once."""
    with transaction.atomic():
        if agents_mark_seen(agent_ids=[agent.pk], now=timezone.now()):
            dispatch_soon()


def offers_settle_accept(*, session: Session, agent: User, now: datetime) -> tuple[int, ...]:
    """In the accept's transaction: the winner's offer of the session is accepted, every other
    live offer of it is withdrawn (the agents returned, told by SessionClaimed), and the winner's
    live offer of another session is withdrawn (told by SessionWithdrawn). The winner's misses
    start again from 0 and the freed agents are offered the next session on commit."""
    live = Offer.objects.filter(status=OfferStatus.LIVE)
    live.filter(session=session, agent=agent).update(status=OfferStatus.ACCEPTED, closed_at=now)
    others = tuple(live.filter(session=session).values_list("agent_id", flat=True))
    live.filter(session=session).update(status=OfferStatus.WITHDRAWN, closed_at=now)
    closed = []
    for offer in live.filter(agent=agent).select_related("session"):
        if close_offer(offer, OfferStatus.WITHDRAWN, now):
            events.emit(OfferClosed(offer, reason="accepted_elsewhere"))
            closed.append(offer)
    transfers_lapsed(closed)  # a transfer offered to the winner is over
    User.objects.filter(pk=agent.pk).update(missed_offers=0)
    dispatch_soon()
    return others


def offers_settle_end(*, session: Session, now: datetime) -> tuple[int, ...]:
    """In the transaction that ends a session: its live offers are withdrawn (told by
    SessionWithdrawn); its agent, if any, is idle from now; the router runs on commit."""
    live = Offer.objects.filter(status=OfferStatus.LIVE, session=session)
    withdrawn = tuple(live.values_list("agent_id", flat=True))
    live.update(status=OfferStatus.WITHDRAWN, closed_at=now)
    if session.agent_id is not None:
        User.objects.filter(pk=session.agent_id, agent_status=AgentStatus.AVAILABLE).update(idle_since=now)
    dispatch_soon()
    return withdrawn


def offers_withdraw_session(*, session: Session, now: datetime, reason: str) -> None:
    """In the transaction that takes a waiting session out of the queue without an accept or an
    end (its customer pays alone): each live offer of it is withdrawn and its agent told
    (OfferClosed, SessionWithdrawn with `reason`); the router runs on commit, so those agents are
    offered the next customer at once."""
    for offer in Offer.objects.filter(status=OfferStatus.LIVE, session=session).select_related("session"):
        if close_offer(offer, OfferStatus.WITHDRAWN, now):
            events.emit(OfferClosed(offer, reason=reason))
    dispatch_soon()


def routing_settings_update(*, owner_id: int, agent_capacity: int | None = None, **values: int | bool) -> Routing:
    """Set an owner's routing settings (the panel's Settings page); every field is given but
    `agent_capacity` (None: ROUTING_AGENT_CAPACITY). The router applies them from its next run,
    which this change starts."""
    required = set(FIELD_NAMES) - {"agent_capacity"}
    if set(values) != required:
        raise ValueError(f"routing settings need exactly {sorted(required)}")
    problems = {
        name: [f"Must be a whole number from {low} to {high}."]
        for name, (low, high) in LIMITS.items()
        if name in values
        and (not isinstance(values[name], int) or isinstance(values[name], bool) or not low <= values[name] <= high)
    }
    low, high = LIMITS["agent_capacity"]
    if agent_capacity is not None and (
        not isinstance(agent_capacity, int) or isinstance(agent_capacity, bool) or not low <= agent_capacity <= high
    ):
        problems["agent_capacity"] = [f"Must be a whole number from {low} to {high}."]
    if not isinstance(values["agents_start_on_break"], bool):
        problems["agents_start_on_break"] = ["Must be true or false."]
    if problems:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "The routing settings are invalid.", details=problems)
    with transaction.atomic():
        RoutingSettings.objects.update_or_create(
            owner_id=owner_id, defaults={**values, "agent_capacity": agent_capacity}
        )
        dispatch_soon()
    return routing_for_owner(owner_id)


def agent_capacity_set(*, agent: User, capacity: int | None) -> int | None:
    """The agent's own capacity C (its owner's panel or API); None: its owner's. The router
    applies it from its next run, which this change starts (a seat it gains is offered at once;
    sessions it holds beyond a lowered C stay with it, and it is offered none until below)."""
    low, high = LIMITS["agent_capacity"]
    if capacity is not None and (
        not isinstance(capacity, int) or isinstance(capacity, bool) or not low <= capacity <= high
    ):
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "Customers per agent: a whole number from {low} to {high}, or empty for the restaurant's.",
            params={"low": low, "high": high},
            details={"capacity": [f"Must be a whole number from {low} to {high}, or null."]},
        )
    with transaction.atomic():
        User.objects.filter(pk=agent.pk).update(agent_capacity=capacity)
        agent.agent_capacity = capacity
        dispatch_soon()
    return capacity


def owner_capacity_set(*, owner_id: int, capacity: int | None) -> Routing:
    """The owner's C (the owner API): its other routing settings stay as they are."""
    current = routing_for_owner(owner_id)
    kept = {name: getattr(current, name) for name in FIELD_NAMES if name != "agent_capacity"}
    return routing_settings_update(owner_id=owner_id, agent_capacity=capacity, **kept)
