"""Billing's jobs queued after commit, as subscribers of its domain events (config/
event_subscribers.py): the services emit the event and this module queues the task, so the
services and the task module (which imports them) do not import each other."""

from apps.billing import tasks
from apps.billing.domain_events import PaymentChargedLate, ReaderPaymentNeedsCard
from apps.core import jobs
from apps.core.models import DomainEvent


def reader_take_payment_again(event: ReaderPaymentNeedsCard, recorded: DomainEvent | None = None) -> None:
    jobs.enqueue_on_commit(tasks.reader_take_payment_again, event.payment.pk)


def refund_late_payment(event: PaymentChargedLate, recorded: DomainEvent | None = None) -> None:
    jobs.enqueue_on_commit(tasks.refund_late_payment, event.payment.pk)
