"""Refunds: by the owner's owners and managers only, never agents; full or partial, through
the processor on the connected account, called outside the order's row lock
(apps/billing/processor_calls.py)."""

from django.db import transaction
from django.db.models import Sum

from apps.billing import processor, processor_calls
from apps.billing.models import LATE_SUCCESS_REASON, Payment, PaymentStatus, Refund
from apps.core.actor import API_KEY, REFUNDS_WRITE, Actor, may_act_for
from apps.core.errors import DomainError, ErrorCode
from apps.orders import fulfilment, receipt_mails
from apps.orders.models import Order, OrderStatus
from apps.sessions.models import ENDED_STATUSES

# The statuses of an order a customer left unpaid (billing's payments leave it as it was).
LEFT_UNPAID = (OrderStatus.AWAITING_PAYMENT, OrderStatus.FAILED)
REFUNDABLE = (OrderStatus.CONFIRMED, OrderStatus.PREPARING, OrderStatus.READY, OrderStatus.COMPLETED)


def refund_order(*, order_id: int, actor: Actor, amount_cents: int | None = None, reason: str = "") -> Refund:
    """By a panel owner or manager, or by an owner API key with `refunds:write` acting for its
    owner (the refund then has no `created_by`)."""
    if REFUNDS_WRITE not in actor.scopes:
        if actor.who == API_KEY:
            raise DomainError(ErrorCode.FORBIDDEN, "This API key may not refund orders.")
        raise DomainError(ErrorCode.FORBIDDEN, "Refunds are made by owners or managers in the owner panel.")
    with transaction.atomic():
        order = Order.objects.select_for_update().filter(pk=order_id).first()
        if order is None or not may_act_for(actor, order.owner_id, REFUNDS_WRITE):
            raise DomainError(ErrorCode.NOT_FOUND, "No such order.")
        if order.status not in REFUNDABLE:
            raise DomainError(
                ErrorCode.REFUND_NOT_ALLOWED, "A {status} order cannot be refunded.", params={"status": order.status}
            )
        payment = Payment.objects.get(order=order, status=PaymentStatus.SUCCEEDED)
        remaining = payment.amount_cents - _refunded(payment)
        amount = remaining if amount_cents is None else amount_cents
        if not 1 <= amount <= remaining:
            raise DomainError(
                ErrorCode.VALIDATION_ERROR,
                "The refund amount is out of range.",
                details={"amount_cents": [f"Must be between 1 and {remaining}."]},
            )
        processor_api = processor.client()
        # The n-th refund of the order keeps its key until it is recorded: a retry after a timeout
        # gets the refund the processor may already have made, never a second one.
        key = f"refund-{order.pk}-{Refund.objects.filter(order=order).count() + 1}"
        reservation = processor_calls.reserve(order_id=order.pk, action="refund", idempotency_key=key)
    with processor_calls.released_on_failure(reservation):
        result = processor.call(
            processor_api.v1.refunds.create,
            params={"payment_intent": payment.intent_id, "amount": amount, "reason": "requested_by_customer"},
            options={"stripe_account": payment.account_id, "idempotency_key": key},
        )
        with transaction.atomic():
            order = Order.objects.select_for_update().get(pk=order.pk)
            refund = Refund.objects.filter(refund_id=result.id).first()
            if refund is None:  # else recorded by an attempt that took over an expired reservation
                remaining = payment.amount_cents - _refunded(payment)
                refund = Refund.objects.create(
                    order=order,
                    payment=payment,
                    refund_id=result.id,
                    amount_cents=amount,
                    reason=reason,
                    created_by_id=actor.user_id,
                )
                if amount >= remaining:
                    fulfilment.move(order, OrderStatus.REFUNDED)
                receipt_mails.receipt_after_refund(order)  # the updated receipt, if an address was kept
            processor_calls.finish(reservation)
    return refund


def _refunded(payment: Payment) -> int:
    """Refunded of this payment (an order may also hold a late charge refunded by itself)."""
    return Refund.objects.filter(payment=payment).aggregate(total=Sum("amount_cents"))["total"] or 0


def refund_late(payment_id: int) -> str:
    """Refund in full a card charged after its payment was cancelled (payments._charged_late):
    no order was made for it. The key is the payment's, so a retry (this job again, or the
    sweep) gets the same refund, never a second one; no transaction is held across the call."""
    payment = Payment.objects.filter(pk=payment_id, late_success_at__isnull=False).first()
    if payment is None:
        return "no late charge"
    if Refund.objects.filter(payment=payment).exists():
        return "already refunded"
    result = processor.call(
        processor.client().v1.refunds.create,
        params={"payment_intent": payment.intent_id, "amount": payment.amount_cents, "reason": "requested_by_customer"},
        options={"stripe_account": payment.account_id, "idempotency_key": f"late-refund-{payment.intent_id}"},
    )
    with transaction.atomic():
        order = Order.objects.select_for_update().select_related("session").get(pk=payment.order_id)
        _, made = Refund.objects.get_or_create(
            refund_id=result.id,
            defaults={
                "order_id": payment.order_id,
                "payment": payment,
                "amount_cents": payment.amount_cents,
                "reason": LATE_SUCCESS_REASON,
            },
        )
        if made and order.session.status in ENDED_STATUSES and order.status in LEFT_UNPAID:
            # The customer left and the order was never paid otherwise: it ends refunded, and the
            # owner's systems hear it (order.status_changed). An order still in use (the payment
            # was taken back, the cart goes on) or paid by another payment keeps its status.
            fulfilment.move(order, OrderStatus.REFUNDED)
    return "refunded"
