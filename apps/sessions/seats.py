"""An agent's seats: it holds at most one video conversation (an active video session, before
payment) and at most C sessions in all (sessions in payment and text chats fill the other seats).
One rule, used by accept and transfer under the agent's row lock and by the router's plan.

C is the agent's own `agent_capacity`, else its owner's (routing's setting, which sessions does
not import: routing registers its reader when the app is ready, apps/routing/apps.py), else
ROUTING_AGENT_CAPACITY."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Q
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.core.errors import DomainError, ErrorCode
from apps.sessions.models import Medium, Session, SessionStatus

HELD_STATUSES = (SessionStatus.ACTIVE, SessionStatus.PAYMENT)
OwnerCapacityReader = Callable[[int | None], int]

_reader: list[OwnerCapacityReader] = []  # at most one: the last registered


def register_owner_capacity_reader(reader: OwnerCapacityReader) -> None:
    _reader[:] = [reader]


def capacity_of(*, agent_capacity: int | None, owner_id: int | None) -> int:
    """C of an agent with this override (None: none) and owner (None: a platform agent)."""
    if agent_capacity:
        return agent_capacity
    return _reader[0](owner_id) if _reader else settings.ROUTING_AGENT_CAPACITY


@dataclass(frozen=True)
class Held:
    """What an agent holds now: its sessions in `active` or `payment`, and whether one of them
    is a video conversation."""

    count: int = 0
    in_conversation: bool = False


def is_conversation(status: str, medium: str) -> bool:
    return status == SessionStatus.ACTIVE and medium == Medium.VIDEO


def has_room(*, capacity: int, held: Held, video: bool) -> bool:
    """Whether an agent holding `held` may take one more session (a video one if `video`)."""
    return held.count < capacity and not (video and held.in_conversation)


def conversation_q() -> Q:
    """A video conversation: an active video session, or one in payment whose agent is taking the
    payment back (from the check before the processor cancels the intent to the record step that
    makes it active again; at most PAYMENT_TAKE_BACK_HOLD_SECONDS), so an accept in between
    never makes two."""
    since = timezone.now() - timedelta(seconds=settings.PAYMENT_TAKE_BACK_HOLD_SECONDS)
    taking_back = Q(status=SessionStatus.PAYMENT, payment_taken_back_at__gte=since)
    return Q(medium=Medium.VIDEO) & (Q(status=SessionStatus.ACTIVE) | taking_back)


def held_by(agent_ids: list[int]) -> dict[int, Held]:
    """Each agent's Held (agents holding nothing are left out), in one query."""
    rows = (
        Session.objects.filter(agent_id__in=agent_ids, status__in=HELD_STATUSES)
        .values("agent_id")
        .annotate(count=Count("pk"), conversations=Count("pk", filter=conversation_q()))
    )
    return {row["agent_id"]: Held(row["count"], row["conversations"] > 0) for row in rows}


def seat_refusal(*, capacity: int, held: Held, video: bool) -> DomainError | None:
    """Why an agent holding `held` may not take one more session, or None. At one seat the
    refusal keeps its first code, AGENT_HAS_ACTIVE_SESSION (there "at capacity" and "holding a
    session" are one fact, and clients made against it keep working)."""
    if has_room(capacity=capacity, held=held, video=video):
        return None
    if capacity <= 1:
        return DomainError(
            ErrorCode.AGENT_HAS_ACTIVE_SESSION,
            "End your current session before accepting another.",
        )
    if held.count >= capacity:
        return DomainError(
            ErrorCode.AGENT_AT_CAPACITY,
            "You are serving as many customers as you can at once ({capacity}): finish one first.",
            params={"capacity": capacity},
            details={"capacity": capacity, "sessions_held": held.count},
        )
    return DomainError(
        ErrorCode.AGENT_IN_CONVERSATION,
        "You are in a video conversation: send it to payment or end it before taking another video call.",
        details={"capacity": capacity, "sessions_held": held.count},
    )


def take_seat(*, agent: User, session: Session) -> str:
    """Inside the caller's transaction: lock the agent's row, then refuse a disabled account or
    one with no seat for `session`. The lock serialises the agent's own accepts and transfers, so
    it never holds more than its seats, and orders them after a concurrent agent_disable.

    Returns the agent's status once it holds `session`: busy once every seat is taken (at one
    seat, on every accept), else available, so the router offers it the next customer it can take."""
    locked = User.objects.select_for_update().filter(pk=agent.pk).only("is_active", "agent_capacity", "owner").first()
    if locked is None or not locked.is_active:
        raise DomainError(ErrorCode.ACCOUNT_DISABLED, "This account has been disabled.")
    capacity = capacity_of(agent_capacity=locked.agent_capacity, owner_id=locked.owner_id)
    held = held_by([agent.pk]).get(agent.pk, Held())
    refusal = seat_refusal(capacity=capacity, held=held, video=session.medium == Medium.VIDEO)
    if refusal is not None:
        raise refusal
    return AgentStatus.BUSY if held.count + 1 >= capacity else AgentStatus.AVAILABLE


def ensure_payment_can_be_taken_back(session: Session) -> None:
    """Taking a video session's payment back makes it its agent's video conversation again:
    refused (409 AGENT_IN_CONVERSATION) while the agent holds another one. Checked before the
    processor is asked to cancel anything (apps/billing/services/payments.py), in its locked
    read; from then on the session holds the agent's video seat (payment_taken_back_at), so an
    accept by the agent's other tab before the record step is refused and the router offers it
    no video customer. The agent's row lock orders this check with its accepts (they take it)."""
    if session.agent_id is None or session.medium != Medium.VIDEO:
        return
    list(User.objects.select_for_update().filter(pk=session.agent_id).values_list("pk"))
    others = Session.objects.filter(conversation_q(), agent_id=session.agent_id, status__in=HELD_STATUSES)
    if others.exclude(pk=session.pk).exists():
        raise DomainError(
            ErrorCode.AGENT_IN_CONVERSATION,
            "You are in another video conversation: end it or send it to payment before taking this payment back.",
        )
    session.payment_taken_back_at = timezone.now()
    Session.objects.filter(pk=session.pk).update(payment_taken_back_at=session.payment_taken_back_at)


def release_take_back_hold(session: Session) -> None:
    """A take-back the processor refused leaves the session in payment as it was: its hold on
    the agent's video seat goes, so nothing of the failed request stays."""
    session.payment_taken_back_at = None
    Session.objects.filter(pk=session.pk).update(payment_taken_back_at=None)
