"""Transfer: the serving agent hands an active session to a colleague (docs/kiosk-and-agent.md,
"Transfer").

A transfer is a set of live offers (apps/routing/offers.py rows with `transfer_from`): one to a
named colleague, or a wave to up to K free agents of the pool who speak a language, chosen by
the router's own rules (router.plan_offers). The session stays active with its cart and video
channel and its agent meanwhile. The first receiver to accept (the existing accept endpoint:
accept.session_accept hands an accept of an active session to `transfer_accept`) becomes the
session's agent: the current Assignment closes and one with via=transfer opens, the sender
returns to the queue. Offers that lapse close on the routing tick like any other (not a miss:
the receiver was not a waiting customer's only hope); when the last one of a transfer closes
unaccepted, the sender keeps the session and hears TransferLapsed (transfer_ends.py).

Every write here takes the session's row lock first, so a transfer, its accept, an end and a
send to payment are serialised: an end or a payment withdraws a transfer's live offers.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q, QuerySet
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.routing.capacity import seats_of
from apps.routing.domain_events import OfferClosed, OfferMade, QueueChanged, SessionTransferred, TransferLapsed
from apps.routing.free_agents import free_agents
from apps.routing.models import Offer, OfferStatus
from apps.routing.router import WaitingSession, plan_offers
from apps.routing.routing_settings import routing_for_owner
from apps.routing.signed_in import agents_holding_channel, signed_in
from apps.routing.tasks import dispatch_soon
from apps.routing.transfer_ends import live_transfer_offers
from apps.sessions import seats, selectors
from apps.sessions.models import Assignment, AssignmentVia, Medium, Session, SessionStatus
from apps.sessions.seats import has_room
from apps.sessions.state_machine import next_status


def _free_agents(session: Session, now: datetime) -> QuerySet[User]:
    """The session's pool (its owner's agents, then the platform's) who could take it now:
    active, available, signed in, with a seat for it (apps/sessions/seats.py); never the sender."""
    pool = (
        User.objects.filter(Q(owner_id=session.owner_id) | Q(owner__isnull=True))
        .filter(signed_in(now, agents_holding_channel()), is_agent=True, is_active=True)
        .filter(agent_status=AgentStatus.AVAILABLE)
        .exclude(pk__in=[session.agent_id] if session.agent_id else [])
    )
    seat_of = seats_of(list(pool.values_list("pk", flat=True)))
    video = session.medium == Medium.VIDEO
    return pool.filter(
        pk__in=[pk for pk, seat in seat_of.items() if has_room(capacity=seat.capacity, held=seat.held, video=video)]
    )


def transfer_candidates(*, public_id: str, agent: User) -> list[User]:
    """The colleagues the serving agent may name now (the dashboard's Transfer list): free
    agents of the pool holding no transfer offer, the owner's first, by name; at most 100."""
    session = selectors.session_visible_to_agent(agent=agent, public_id=public_id)
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent serving this session can transfer it.")
    next_status(session.status, "transfer")
    holding_transfer = Offer.objects.filter(status=OfferStatus.LIVE, transfer_from__isnull=False).values("agent_id")
    free = _free_agents(session, timezone.now()).exclude(pk__in=holding_transfer)
    return list(free.order_by(F("owner_id").asc(nulls_last=True), "name", "pk").only("pk", "name", "languages")[:100])


def transfer_pending(*, public_id: str, agent: User) -> list[Offer]:
    """The live offers of the agent's transfer of its session (empty: none pending), for the
    dashboard to show "waiting for Bea" again after a reload. Ownership as transfer_candidates."""
    session = selectors.session_visible_to_agent(agent=agent, public_id=public_id)
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent serving this session can transfer it.")
    live = live_transfer_offers(session).filter(expires_at__gt=timezone.now())
    return list(live.select_related("agent").order_by("agent__name", "agent_id"))


def transfer_cancel(*, public_id: str, agent: User) -> Session:
    """The sender takes its transfer back before anyone accepts it: the receivers' offers are
    withdrawn (they hear SessionWithdrawn, `transfer_cancelled`), the sender keeps the session
    (its other tabs hear TransferLapsed, `cancelled`) and the receivers go back to the queue.
    Once a receiver has accepted, 409 TRANSFER_ALREADY_ACCEPTED; with none pending, 409
    TRANSFER_NOT_PENDING."""
    now = timezone.now()
    with transaction.atomic():
        session = selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.agent_id != agent.pk:
            handed = Offer.objects.filter(session=session, transfer_from=agent, status=OfferStatus.ACCEPTED)
            if handed.exists():  # the receiver accepted first (same row lock: one or the other)
                raise DomainError(
                    ErrorCode.TRANSFER_ALREADY_ACCEPTED, "A colleague has already taken this session over."
                )
            raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent serving this session can transfer it.")
        live = list(live_transfer_offers(session).filter(expires_at__gt=now).select_related("session"))
        if not live:
            raise DomainError(ErrorCode.TRANSFER_NOT_PENDING, "This session has no transfer waiting for an answer.")
        live_transfer_offers(session).update(status=OfferStatus.WITHDRAWN, closed_at=now)
        for offer in live:
            events.emit(OfferClosed(offer, reason="transfer_cancelled"))
        events.emit(TransferLapsed(session, from_agent_id=agent.pk, reason="cancelled"))
        events.emit(QueueChanged(owner_id=session.owner_id))  # the receivers are free again
        dispatch_soon()  # and are offered the oldest waiting session
    return session


def transfer_start(
    *, public_id: str, agent: User, to_agent_id: int | None = None, language: str | None = None
) -> list[Offer]:
    """Offer the agent's active session to one colleague (`to_agent_id`) or to a wave of the
    agents speaking `language`. Returns the offers made (all with the same expiry)."""
    now = timezone.now()
    with transaction.atomic():
        session = selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.agent_id != agent.pk:
            raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent serving this session can transfer it.")
        next_status(session.status, "transfer")  # INVALID_STATE while in payment, or already ended
        if live_transfer_offers(session).filter(expires_at__gt=now).exists():
            raise DomainError(ErrorCode.TRANSFER_IN_PROGRESS, "This session is already being transferred.")
        free = _free_agents(session, now)
        if to_agent_id is not None:
            receivers = _named_receiver(session, free, to_agent_id)
        else:
            receivers = _language_wave(session, free, language or "", now)
        replaced = Offer.objects.filter(
            status=OfferStatus.LIVE, agent_id__in=receivers, transfer_from__isnull=True
        ).select_related("session")
        for offer in replaced:  # a named colleague's queue offer gives way to the colleague's transfer
            if Offer.objects.filter(pk=offer.pk, status=OfferStatus.LIVE).update(
                status=OfferStatus.WITHDRAWN, closed_at=now
            ):
                events.emit(OfferClosed(offer, reason="transfer_offered"))
        expires_at = now + timedelta(seconds=routing_for_owner(session.owner_id).offer_seconds)
        made = [
            Offer(session=session, agent_id=receiver, transfer_from=agent, created_at=now, expires_at=expires_at)
            for receiver in receivers
        ]
        Offer.objects.bulk_create(made)
        for offer in made:
            events.emit(OfferMade(offer))
        events.emit(QueueChanged(owner_id=session.owner_id))  # the receivers are "offered" on the board
        dispatch_soon()  # a queue offer taken back above goes to the next agent
    return made


def _named_receiver(session: Session, free: QuerySet[User], to_agent_id: int) -> list[int]:
    pool = User.objects.filter(Q(owner_id=session.owner_id) | Q(owner__isnull=True), is_agent=True)
    if not pool.filter(pk=to_agent_id).exists():  # another owner's agent is no agent here
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "No such agent in this session's pool.",
            details={"to_agent_id": ["No such agent in this session's pool."]},
        )
    if to_agent_id == session.agent_id:
        raise DomainError(
            ErrorCode.VALIDATION_ERROR,
            "You already serve this session.",
            details={"to_agent_id": ["You already serve this session."]},
        )
    holding_transfer = Offer.objects.filter(status=OfferStatus.LIVE, transfer_from__isnull=False).values("agent_id")
    if not free.exclude(pk__in=holding_transfer).filter(pk=to_agent_id).exists():
        raise DomainError(
            ErrorCode.TRANSFER_TARGET_UNAVAILABLE,
            "That agent is not available just now (busy, on a break or signed out).",
        )
    return [to_agent_id]


def _language_wave(session: Session, free: QuerySet[User], language: str, now: datetime) -> list[int]:
    """Up to K free agents speaking `language`, as the router would pick them for a waiting
    session in that language (longest idle first; no any-language widening)."""
    # The wave is for speakers of it, not for every-language agents.
    candidates = [agent for agent in free_agents(free, now) if language in agent.languages]
    wave = WaitingSession(
        id=session.pk,
        owner_id=session.owner_id,
        created_at=now,
        language=language,
        any_language=False,
        wave_room=routing_for_owner(session.owner_id).offer_size,
        video=session.medium == Medium.VIDEO,
        accessible_mode=session.accessible_mode,
    )
    receivers = [agent_id for _, agent_id in plan_offers([wave], candidates)]
    if not receivers:
        raise DomainError(
            ErrorCode.TRANSFER_TARGET_UNAVAILABLE,
            "No agent who speaks '{language}' is available just now.",
            params={"language": language},
            details={"language": language},
        )
    return receivers


def transfer_accept(*, public_id: str, agent: User) -> Session:
    """The receiver takes the session (POST /api/sessions/{id}/accept of an active session:
    accept.session_accept hands it here). Refused with the spec's 409 SESSION_ALREADY_ACCEPTED
    unless the receiver holds a live transfer offer of it (another receiver won, it lapsed, or
    it was withdrawn), SESSION_ALREADY_ENDED once it is over."""
    with transaction.atomic():
        session = selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        status = seats.take_seat(agent=agent, session=session)
        now = timezone.now()
        offer = live_transfer_offers(session).filter(agent=agent, expires_at__gt=now).first()
        if offer is None or session.status != SessionStatus.ACTIVE:
            next_status(session.status, "transfer")  # SESSION_ALREADY_ENDED once it is over
            raise DomainError(ErrorCode.SESSION_ALREADY_ACCEPTED, "Another agent is serving this session.")
        sender_id = session.agent_id
        live = live_transfer_offers(session)
        others = tuple(live.exclude(pk=offer.pk).values_list("agent_id", flat=True))
        live.filter(pk=offer.pk).update(status=OfferStatus.ACCEPTED, closed_at=now)
        live.update(status=OfferStatus.WITHDRAWN, closed_at=now)
        Assignment.objects.filter(session=session, ended_at__isnull=True).update(ended_at=now)
        Assignment.objects.create(session=session, agent=agent, via=AssignmentVia.TRANSFER, started_at=now)
        Session.objects.filter(pk=session.pk).update(agent=agent)
        session.agent = agent
        User.objects.filter(pk=agent.pk).update(agent_status=status, last_seen_at=now, missed_offers=0)
        agent.agent_status = status
        User.objects.filter(pk__in=[sender_id] if sender_id else [], agent_status=AgentStatus.BUSY).update(
            agent_status=AgentStatus.AVAILABLE, idle_since=now, last_seen_at=now
        )
        events.emit(SessionTransferred(session, from_agent_id=sender_id or 0, offered_agent_ids=others))
        dispatch_soon()  # the sender is offered the oldest waiting session
    return session
