from celery import shared_task

from apps.billing.services import reconciliation


@shared_task(name="billing.reconcile_payments", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def reconcile_payments() -> dict[str, int]:
    return reconciliation.payments_reconcile()
