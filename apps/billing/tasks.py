from celery import shared_task

from apps.billing.services import payments, reconciliation, refunds


@shared_task(name="billing.reconcile_payments", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def reconcile_payments() -> dict[str, int]:
    return reconciliation.payments_reconcile()


@shared_task(name="billing.reader_take_payment_again", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def reader_take_payment_again(payment_id: int) -> str:
    return payments.reader_take_payment_again(payment_id)


@shared_task(name="billing.refund_late_payment", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def refund_late_payment(payment_id: int) -> str:
    return refunds.refund_late(payment_id)
