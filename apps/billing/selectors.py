"""Reads of billing: an owner's plan and account, an order's payments and refunds (the order
itself is read tenant-scoped first)."""

from typing import TypedDict

from django.db.models import QuerySet, Sum

from apps.billing.models import CardReader, OwnerBilling, Payment, PaymentStatus, ReaderRefusal, Refund
from apps.core.body_shapes import DateTimeText
from apps.core.errors import DomainError, ErrorCode
from apps.core.timefmt import iso_z
from apps.orders.models import Order
from apps.sessions.bodies import PaymentBriefBody, ReaderRefusalBody
from apps.sessions.models import Session


def billing_of_owner(owner_id: int) -> OwnerBilling:
    """The owner's billing row, or an unsaved default one (plan and account not set yet)."""
    return OwnerBilling.objects.filter(owner_id=owner_id).first() or OwnerBilling(owner_id=owner_id)


def charges_account(owner_id: int) -> str:
    """The owner's connected account, refused until it can take charges (a card payment and a
    card reader both need one)."""
    billing = OwnerBilling.objects.filter(owner_id=owner_id).first()
    if billing is None or not billing.account_id or not billing.charges_enabled:
        raise DomainError(
            ErrorCode.PROCESSOR_ACCOUNT_NOT_READY,
            "This business cannot take card payments yet: the owner must finish processor onboarding.",
        )
    return billing.account_id


def payments_of_order(order: Order) -> QuerySet[Payment]:
    return Payment.objects.filter(order=order).order_by("created_at")


def refunds_of_order(order: Order) -> QuerySet[Refund]:
    return Refund.objects.filter(order=order).select_related("created_by").order_by("created_at")


def refunded_cents(order: Order) -> int:
    return Refund.objects.filter(order=order).aggregate(total=Sum("amount_cents"))["total"] or 0


class ReaderBrief(TypedDict):
    """The reader a payment waits on, as the kiosk shows it (the status body's payment.reader)."""

    label: str
    status: str  # online or offline, as the processor last reported it
    action_status: str  # in_progress, succeeded, failed, canceled, or "" before any action
    failure_code: str  # the processor's cause when the action failed (e.g. card_read_failed), else ""


def readers_of_kiosks(owner_id: int, kiosk_ids: list[int]) -> dict[int, CardReader]:
    """The owner's kiosks' card readers, by kiosk id (a kiosk without one is absent)."""
    rows = CardReader.objects.filter(owner_id=owner_id, kiosk_id__in=kiosk_ids)
    return {reader.kiosk_id: reader for reader in rows}


def kiosk_has_reader(kiosk_id: int) -> bool:
    return CardReader.objects.filter(kiosk_id=kiosk_id).exists()


def payment_brief_of_session(session: Session) -> PaymentBriefBody | None:
    """The status body's `payment` for a session in payment: its latest payment's method and reader."""
    payment = Payment.objects.filter(order__session_id=session.pk).order_by("-created_at").first()
    if payment is None:
        return None
    failed = payment.status == PaymentStatus.FAILED
    return {
        "method": payment.method,
        "reader": reader_of_payment(payment),
        "failure_code": payment.failure_code if failed else "",
    }


def reader_of_payment(payment: Payment) -> ReaderBrief | None:
    reader = None if payment.reader_id is None else CardReader.objects.filter(pk=payment.reader_id).first()
    if reader is None:
        return None
    failed = reader.action_status == "failed"
    return {
        "label": reader.label,
        "status": reader.status,
        "action_status": reader.action_status,
        "failure_code": reader.failure_code if failed else "",
    }


def reader_refusal_of_session(session: Session) -> ReaderRefusalBody | None:
    """The status body's `reader_refusal` of an active session: the reader refused the agent's last
    send to payment and no send has gone through since (the row is deleted then)."""
    refusal = ReaderRefusal.objects.filter(session_id=session.pk).only("reason", "refused_at").first()
    return None if refusal is None else reader_refusal_body(refusal)


def reader_refusal_body(refusal: ReaderRefusal) -> ReaderRefusalBody:
    return {"reason": refusal.reason, "refused_at": DateTimeText(iso_z(refusal.refused_at))}
