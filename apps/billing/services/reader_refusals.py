"""The kiosk's card reader refused the agent's send to payment (409 READER_OFFLINE / READER_BUSY):
the agent reads it in the answer and sends again; the customer, who sees no payment step, is told
by the kiosk (the status body's `reader_refusal`, the ReaderRefused message). The refusal is kept
on its own row, written under the session's row lock after the send's reservation is released, so
the send's rule stands: a refused send records nothing of a payment. It lasts until a send goes
through or the session moves on (`forget`, a subscriber of every transition)."""

from collections.abc import Callable

from django.db import transaction
from django.utils import timezone

from apps.billing.domain_events import ReaderRefused
from apps.billing.models import CardReader, ReaderRefusal, ReaderRefusalReason
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.core.models import DomainEvent
from apps.sessions.domain_events import SessionEvent
from apps.sessions.models import Session, SessionStatus

REASONS = {ErrorCode.READER_OFFLINE: ReaderRefusalReason.OFFLINE, ErrorCode.READER_BUSY: ReaderRefusalReason.BUSY}


def record(*, session: Session, reader: CardReader, code: ErrorCode, check: Callable[[Session], None]) -> None:
    """Keep the reader's refusal of a send to payment of `session` (`code` READER_OFFLINE or
    READER_BUSY) and tell the kiosk, unless the session has moved on meanwhile (another send went
    through, the session ended or is another agent's now: `check` refuses). A second refusal
    replaces the first."""
    reason = REASONS.get(code)
    if reason is None:
        return
    with transaction.atomic():
        locked = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
        if locked.status != SessionStatus.ACTIVE:
            return
        try:
            check(locked)
        except DomainError:
            return
        refusal, _ = ReaderRefusal.objects.update_or_create(
            session=locked,
            defaults={"owner_id": locked.owner_id, "reader": reader, "reason": reason, "refused_at": timezone.now()},
        )
        events.emit(ReaderRefused(locked, refusal=refusal))


def forget(event: SessionEvent, recorded: DomainEvent | None = None) -> None:
    """Subscriber of every transition of a session that may hold a refusal (to payment and back, a
    transfer, the end): the refusal is over. Listed before the kiosk's SessionStatusChanged, whose
    body then says null (the transition's own forget_status drops the cached copy)."""
    ReaderRefusal.objects.filter(session_id=event.session.pk).delete()
