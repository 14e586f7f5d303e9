"""Processor calls outside row locks: reserve, call, record.

A payment change that needs the processor runs in three steps:
1. a short transaction, under the session's (or order's) row lock, checks the state and
   reserves the order (a ProcessorCall row), then commits;
2. the processor call runs with no transaction open and no lock held, bounded in time;
3. a second transaction checks the state again, records the result and deletes the reservation.
If the call (or step 3) fails, the reservation is deleted and nothing else was written: the
session and order are exactly as before, and the retry sends the same idempotency key.
"""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from math import ceil

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.billing import processor
from apps.billing.models import ProcessorCall
from apps.core.errors import DomainError, ErrorCode


def reserve(*, order_id: int, action: str, idempotency_key: str) -> ProcessorCall:
    """Step 1, inside the caller's transaction and row lock. A live reservation of the same order
    answers 409 (with Retry-After); an expired one was left by a crashed process and is replaced."""
    now = timezone.now()
    current = ProcessorCall.objects.filter(order_id=order_id).first()
    if current is not None:
        if current.expires_at > now:
            raise _in_progress(current, now)
        current.delete()
    expires_at = now + timedelta(seconds=processor.longest_call_seconds())
    try:
        with transaction.atomic():
            return ProcessorCall.objects.create(
                order_id=order_id, action=action, idempotency_key=idempotency_key, started_at=now, expires_at=expires_at
            )
    except IntegrityError:  # a reservation made under the other lock (session vs order) won
        current = ProcessorCall.objects.filter(order_id=order_id).first()
        raise _in_progress(current, now) from None


def finish(reservation: ProcessorCall) -> None:
    """Step 3, inside the transaction that records the result."""
    ProcessorCall.objects.filter(pk=reservation.pk).delete()


@contextmanager
def released_on_failure(reservation: ProcessorCall) -> Iterator[None]:
    """Steps 2 and 3: if the call or the recording fails, delete the reservation (only ours: a
    reservation that expired and was replaced belongs to the newer attempt) and re-raise."""
    try:
        yield
    except BaseException:
        ProcessorCall.objects.filter(pk=reservation.pk).delete()
        raise


def _in_progress(current: ProcessorCall | None, now: datetime) -> DomainError:
    wait = 1 if current is None else max(1, ceil((current.expires_at - now).total_seconds()))
    what = "another payment change" if current is None else current.action.replace("_", " ")
    return DomainError(
        ErrorCode.PROCESSOR_CALL_IN_PROGRESS,
        "The processor is still handling {what} for this order: try again when it has answered.",
        params={"what": what},
        details={"action": None if current is None else current.action},
        headers={"Retry-After": str(wait)},
    )
