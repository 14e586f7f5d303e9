"""The reconciliation sweep: no card charged without its order.

A processor event can be lost, or fail on our side and be given up. Every
PAYMENT_RECONCILE_EVERY_SECONDS the beat looks up, with the processor, each payment still waiting
PAYMENT_RECONCILE_AFTER_SECONDS after it was created (and younger than
PAYMENT_RECONCILE_WITHIN_HOURS): an intent that succeeded confirms its order through the same
service as the processor's event (payments.payment_succeeded: the same domain events, webhooks and
kiosk message, once, since both take the payment's row lock and act only on a waiting payment); a
declined one fails the order as the event would. Each repair is logged, marked on the payment
(the panel's order page shows it) and counted in /metrics (kiosk_payments_reconciled). Processor
calls run with no transaction open (apps/billing/processor_calls.py); a processor that does not
answer is tried again at the next sweep. A card-reader payment still waiting goes back to its
reader if the reader does not hold it (a hand-back after a decline that found the reader
offline), and a card charged after its payment was cancelled whose refund failed is refunded.
"""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.billing import processor
from apps.billing.models import Payment, PaymentMethod, PaymentStatus
from apps.billing.services import intent_check, payments, refunds
from apps.core.errors import DomainError

log = logging.getLogger(__name__)
WAITING = (PaymentStatus.REQUIRES_PAYMENT_METHOD, PaymentStatus.FAILED)
BATCH = 200  # payments looked up per sweep at most; the next sweep takes the rest


def payments_to_reconcile() -> list[Payment]:
    now = timezone.now()
    newest = now - timedelta(seconds=settings.PAYMENT_RECONCILE_AFTER_SECONDS)
    oldest = now - timedelta(hours=settings.PAYMENT_RECONCILE_WITHIN_HOURS)
    waiting = Payment.objects.filter(status__in=WAITING, created_at__lte=newest, created_at__gte=oldest)
    return list(waiting.order_by("created_at")[:BATCH])


def _settle(payment_id: int, intent: processor.IntentState) -> str:
    """Apply the processor's record to a payment still waiting, under its row lock; the outcome."""
    with transaction.atomic():
        payment = Payment.objects.select_for_update().get(pk=payment_id)
        if payment.status not in WAITING:
            return f"already {payment.status}"  # its event arrived while we asked
        if intent["status"] == "succeeded":
            refusal = intent_check.not_succeeded(payment, intent)
            if refusal:
                log.error("payment %s not reconciled: %s", payment.intent_id, refusal)
                return f"refused: {refusal}"
            payments.payment_succeeded(payment=payment, card=intent["card"])
            outcome = "confirmed"
        elif intent["last_payment_error"] and payment.status == PaymentStatus.REQUIRES_PAYMENT_METHOD:
            error = intent["last_payment_error"]
            message = error["message"] or "The card was declined."
            payments.payment_failed(payment=payment, message=message, code=error["code"] or "")
            outcome = "failed"
        else:
            return f"still {intent['status']}"
        payment.reconciled_at, payment.reconciled_outcome = timezone.now(), outcome
        payment.save(update_fields=["reconciled_at", "reconciled_outcome"])
    log.warning(
        "payment %s of order %s repaired by reconciliation: the processor's event had not arrived, order %s",
        payment.intent_id,
        payment.order_id,
        outcome,
    )
    return outcome


def _late_refunds_retry() -> None:
    """Card-reader charges made after their payment was cancelled whose refund has not been made
    yet (the processor did not answer): tried again, with the same idempotency key."""
    waiting = Payment.objects.filter(late_success_at__isnull=False, refunds__isnull=True)
    for payment_id in waiting.values_list("pk", flat=True)[:BATCH]:
        try:
            refunds.refund_late(payment_id)
        except DomainError as exc:
            log.warning("late charge of payment %s not refunded this time: %s", payment_id, exc.message)


def payments_reconcile() -> dict[str, int]:
    """One sweep; how many payments ended each way (for logs and tests)."""
    _late_refunds_retry()
    outcomes: dict[str, int] = {}
    for payment in payments_to_reconcile():
        try:
            intent = processor.intent_retrieve(intent_id=payment.intent_id, account_id=payment.account_id)
            outcome = _settle(payment.pk, intent)
            if outcome.startswith("still") and payment.method == PaymentMethod.CARD_PRESENT:
                # A hand-back to the reader that did not happen (it was offline): tried again.
                payments.reader_take_payment_again(payment.pk)
        except DomainError as exc:  # processor unreachable or refusing, or an order that cannot move
            log.warning("payment %s not reconciled this time: %s", payment.intent_id, exc.message)
            outcome = "unchecked"
        key = outcome.split(":")[0].split(" ")[0]
        outcomes[key] = outcomes.get(key, 0) + 1
    return outcomes
