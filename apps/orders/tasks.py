from celery import Task, shared_task
from django.conf import settings

from apps.orders import receipts


@shared_task(name="orders.send_receipt", bind=True, ignore_result=True, max_retries=5)  # type: ignore[untyped-decorator]  # celery is untyped
def send_receipt(self: Task, order_id: int, email: str) -> bool:
    """Mail a receipt; a mail server that fails is tried again (RECEIPT_EMAIL_RETRY_SECONDS apart)."""
    try:
        return receipts.receipt_send(order_id, email)
    except OSError as error:  # smtplib's errors and refused connections are OSErrors
        raise self.retry(exc=error, countdown=settings.RECEIPT_EMAIL_RETRY_SECONDS) from error
