"""State changes for sessions. Each function is one transition of `state_machine.TRANSITIONS`,
runs in one transaction and emits its domain event inside it (sessions/domain_events.py); what
each event causes (webhooks, real-time messages, the kiosk poll's cached status) is listed in
config/event_subscribers.py."""

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.accounts.models import AgentStatus, User
from apps.accounts.suspension import ensure_owner_not_suspended
from apps.core import events
from apps.core.errors import DomainError, ErrorCode, require_choice
from apps.kiosks.models import Kiosk
from apps.sessions import seats, selectors
from apps.sessions.domain_events import SessionAccepted, SessionEnded, SessionMoved, SessionStarted
from apps.sessions.models import OPEN_STATUSES, Assignment, AssignmentVia, EndReason, Medium, Session, SessionStatus
from apps.sessions.selectors import AcceptSeen
from apps.sessions.state_machine import next_status
from apps.video.recordings import recording_start


def session_start(
    *, kiosk: Kiosk, customer_locale: str, accessible_mode: bool = False, medium: str = Medium.VIDEO
) -> Session:
    """Open a pending session on `kiosk`; a kiosk has at most one open session. A suspended
    owner's kiosks take no new customers (403 OWNER_SUSPENDED). `accessible_mode`: the customer
    started it in the kiosk's accessible mode. `medium`: the customer talks over video (the
    default) or writes in the chat (Medium)."""
    require_choice(medium, Medium.values, field="medium", message=gettext_noop("Unknown medium."))
    ensure_owner_not_suspended(kiosk.business.owner_id)
    existing = Session.objects.filter(kiosk=kiosk, status__in=OPEN_STATUSES).first()
    if existing is not None:
        raise _in_progress(existing)
    try:
        with transaction.atomic():
            session = Session.objects.create(
                owner_id=kiosk.business.owner_id,
                business=kiosk.business,
                kiosk=kiosk,
                customer_locale=customer_locale,
                accessible_mode=accessible_mode,
                medium=medium,
            )
            events.emit(SessionStarted(session))
    except IntegrityError:  # a concurrent start on the same kiosk won the unique constraint
        existing = Session.objects.filter(kiosk=kiosk, status__in=OPEN_STATUSES).first()
        if existing is None:
            raise
        raise _in_progress(existing) from None
    return session


def _in_progress(session: Session) -> DomainError:
    return DomainError(
        ErrorCode.SESSION_IN_PROGRESS,
        "This kiosk already has a {status} session ({public_id}).",
        params={"status": session.status, "public_id": session.public_id},
        details={"session_id": session.public_id, "status": session.status},
    )


def session_accept(*, public_id: str, agent: User) -> Session:
    """Claim a pending session. A single conditional UPDATE decides the race: exactly one of
    any number of concurrent callers wins; the others get 409 SESSION_ALREADY_ACCEPTED. (The
    accept endpoint is routing's, apps/routing/accept.py: it also hands a transfer's receiver an
    active session.)"""
    return session_accept_seen(
        public_id=public_id, agent=agent, seen=selectors.accept_precheck(agent=agent, public_id=public_id)
    )


def session_accept_seen(*, public_id: str, agent: User, seen: AcceptSeen | None) -> Session:
    """`session_accept` given the unlocked read of the session (None: it found none; the locked
    read then answers 404). The agent must have a seat for it (apps/sessions/seats.py)."""
    if seen is not None and seen.status != SessionStatus.PENDING:  # None: the locked read says 404
        _refuse_lost_accept(agent=agent, seen=seen)
    with transaction.atomic():
        session = selectors.session_visible_to_agent(agent=agent, public_id=public_id)
        status = seats.take_seat(agent=agent, session=session)
        now = timezone.now()
        won = Session.objects.filter(pk=session.pk, status=SessionStatus.PENDING).update(
            status=next_status(SessionStatus.PENDING, "accept"), agent=agent, accepted_at=now
        )
        if not won:
            session.refresh_from_db(fields=["status"])
            if session.status in OPEN_STATUSES:
                raise DomainError(ErrorCode.SESSION_ALREADY_ACCEPTED, "Another agent accepted this session first.")
            next_status(session.status, "accept")  # raises SESSION_ALREADY_ENDED
        session.status, session.agent, session.accepted_at = SessionStatus.ACTIVE, agent, now
        User.objects.filter(pk=agent.pk).update(agent_status=status, last_seen_at=now)
        agent.agent_status = status
        Assignment.objects.create(session=session, agent=agent, via=AssignmentVia.ACCEPT, started_at=now)
        events.emit(SessionAccepted(session))  # routing settles the session's offers
        if session.business.session_recording:
            recording_start(session_id=session.pk, public_id=session.public_id, started_at=session.accepted_at)
    return session


def _refuse_lost_accept(*, agent: User, seen: AcceptSeen) -> None:
    """An accept of a session already past pending has lost (a session never returns to pending):
    refuse it from one read, without the transaction and row locks, with the locked path's errors
    in its order. Most of a burst of agents accepting one session end here (bench/accept_race.py)."""
    if seen.held.count:
        capacity = seats.capacity_of(agent_capacity=agent.agent_capacity, owner_id=agent.owner_id)
        refusal = seats.seat_refusal(capacity=capacity, held=seen.held, video=seen.medium == Medium.VIDEO)
        if refusal is not None:
            raise refusal
    if seen.status in OPEN_STATUSES:
        raise DomainError(ErrorCode.SESSION_ALREADY_ACCEPTED, "Another agent accepted this session first.")
    next_status(seen.status, "accept")  # raises SESSION_ALREADY_ENDED


def session_end_locked(*, session: Session, agent: User, reason: str, notes: str) -> None:
    """The agent's end of `session`; the caller holds the transaction and the session row lock.
    Ending from any state, payment included, is apps/sessions/ending.session_end."""
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent who accepted this session can end it.")
    _close(session, action=f"end:{reason}", reason=reason, notes=notes)


def session_cancel_by_kiosk(*, public_id: str, kiosk: Kiosk, inactivity: bool = False) -> Session:
    """The customer walks away: a pending or active session is abandoned. `inactivity`: nobody
    answered the kiosk's "still there?" prompt (end reason kiosk_inactivity, not kiosk_cancelled)."""
    reason = EndReason.KIOSK_INACTIVITY if inactivity else EndReason.KIOSK_CANCELLED
    with transaction.atomic():
        session = selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=True)
        _close(session, action="kiosk_cancel", reason=reason, notes="")
    return session


def _close(session: Session, *, action: str, reason: str, notes: str) -> None:
    """Move an open session to its ended status, free its agent and emit `session.ended`."""
    was_pending = session.status == SessionStatus.PENDING
    session.status = next_status(session.status, action)
    session.ended_at = timezone.now()
    session.end_reason = reason
    session.notes = notes
    session.save(update_fields=["status", "ended_at", "end_reason", "notes"])
    Assignment.objects.filter(session=session, ended_at__isnull=True).update(ended_at=session.ended_at)
    if session.agent_id is not None:
        User.objects.filter(pk=session.agent_id, agent_status=AgentStatus.BUSY).update(
            agent_status=AgentStatus.AVAILABLE, last_seen_at=session.ended_at
        )
    events.emit(SessionEnded(session, was_pending=was_pending))  # routing withdraws its offers


def session_move(*, session: Session, action: str) -> None:
    """An open-to-open transition driven by another app (payment: send_to_payment,
    cancel_payment). The caller holds the transaction and the session row lock."""
    session.status = next_status(session.status, action)
    session.save(update_fields=["status"])
    events.emit(SessionMoved(session))  # routing withdraws a transfer of a session leaving `active`


def session_pay_alone(*, session: Session) -> None:
    """A customer nobody has answered pays alone (self-service, docs/kiosk-and-agent.md): the
    pending session moves to payment and leaves the queue; its live offers are withdrawn
    (SessionWithdrawn `customer_paying`) and the other waiting kiosks move up (routing, on
    SessionMoved). The caller holds the transaction and the session row lock, and has checked
    that no agent holds it."""
    session_move(session=session, action="self_service_payment")


def session_back_to_queue(*, session: Session) -> None:
    """The self-service customer took the payment back: pending again, in its old place in the
    queue (places go by start time), offered to agents on commit (routing, on SessionMoved)."""
    session_move(session=session, action="self_service_cancel_payment")


def session_complete_paid(*, session: Session) -> None:
    """The processor confirmed the payment: the session is completed."""
    _close(session, action="payment_succeeded", reason="completed", notes=session.notes)


def sessions_abandon_stale(*, older_than_seconds: int) -> int:
    """The pending-timeout sweep: a session nobody accepted in time is abandoned (`timed_out`).
    A customer ordering alone is not abandoned while the cart changed within the timeout (the
    clock runs from the last cart change); the kiosk's own inactivity prompt ends an idle one. A
    session in accessible mode has twice the time.
    Row locks with SKIP LOCKED make two sweeps at once harmless."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    # A customer in the kiosk's accessible mode gets twice the time, as with every kiosk time limit.
    accessible_cutoff = now - timedelta(seconds=2 * older_than_seconds)
    abandoned = 0
    stale_ids = list(
        Session.objects.filter(status=SessionStatus.PENDING, created_at__lt=cutoff)
        .exclude(accessible_mode=True, created_at__gte=accessible_cutoff)
        .exclude(order__updated_at__gte=cutoff)  # the self-service cart (orders.Order, by its relation name)
        .exclude(accessible_mode=True, order__updated_at__gte=accessible_cutoff)
        .values_list("pk", flat=True)
    )
    for session_id in stale_ids:
        with transaction.atomic():
            session = (
                Session.objects.select_for_update(skip_locked=True)
                .filter(pk=session_id, status=SessionStatus.PENDING)
                .first()
            )
            if session is None:
                continue
            _close(session, action="timeout", reason="timed_out", notes="")
            abandoned += 1
    return abandoned
