"""Receipts by mail, queued for the worker: the kiosk's request, and the updated receipt after a
refund. The job (tasks.send_receipt) mails it with receipts.receipt_send; this module, not
receipts, queues it, so the task module and receipts do not import each other."""

from django.conf import settings

from apps.core import cache as counters
from apps.core import jobs
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.orders import tasks
from apps.orders.models import Order
from apps.orders.receipts import receipt_path
from apps.sessions import selectors as session_selectors


def receipt_email_request(*, kiosk: Kiosk, session_public_id: str, email: str) -> Order:
    """The kiosk asks for its session's receipt by mail: queued once the request commits."""
    session = session_selectors.session_for_kiosk(kiosk=kiosk, public_id=session_public_id)
    order = Order.objects.filter(session=session).first()
    if order is None or receipt_path(order) is None:
        raise DomainError(ErrorCode.INVALID_STATE, "The order is not paid yet: it has no receipt.")
    # A paired kiosk could otherwise mail anyone any number of times from one order.
    sent = counters.increment(f"receipt-mails:{order.pk}", timeout=settings.RECEIPT_EMAILS_WINDOW_SECONDS)
    if sent is not None and sent > settings.RECEIPT_EMAILS_PER_ORDER:
        raise DomainError(ErrorCode.RATE_LIMITED, "This receipt has been mailed as often as allowed; try later.")
    jobs.enqueue_on_commit(tasks.send_receipt, order.pk, email)
    return order


def receipt_after_refund(order: Order) -> bool:
    """A refund was recorded: the updated receipt (marked refunded) goes to the address kept
    from the customer's request, through the same worker job, once the refund commits. Nothing
    is sent when no address was kept (the business does not keep them, or none was asked for)."""
    if not order.receipt_email or receipt_path(order) is None:
        return False
    jobs.enqueue_on_commit(tasks.send_receipt, order.pk, order.receipt_email)
    return True
