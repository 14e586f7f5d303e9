"""Send to payment and back: a PaymentIntent for the order total on the owner's connected
account (a direct charge: the money is the owner's; no application fee)."""

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.billing import kiosk_events, processor
from apps.billing.models import OwnerBilling, Payment, PaymentStatus
from apps.core.errors import DomainError, ErrorCode
from apps.orders import fulfilment
from apps.orders.models import Order, OrderStatus
from apps.sessions import selectors as session_selectors
from apps.sessions import services as session_services
from apps.sessions.models import ENDED_STATUSES, Session, SessionStatus


def _payable_order(session: Session) -> Order:
    order = Order.objects.filter(session=session).prefetch_related("lines").first()
    if order is None or not order.lines.all() or order.total_cents <= 0:
        raise DomainError(ErrorCode.ORDER_EMPTY, "The cart is empty: add items before sending it to payment.")
    return order


def _charges_account(owner_id: int) -> str:
    billing = OwnerBilling.objects.filter(owner_id=owner_id).first()
    if billing is None or not billing.account_id or not billing.charges_enabled:
        raise DomainError(
            ErrorCode.PROCESSOR_ACCOUNT_NOT_READY,
            "This business cannot take card payments yet: the owner must finish processor onboarding.",
        )
    return billing.account_id


def payment_request(*, public_id: str, agent: User) -> tuple[Session, Payment]:
    """Move an active session to payment. A retried request (same cart, same attempt) reuses the
    same idempotency key, so the processor returns the same intent rather than a second one."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.agent_id != agent.pk:
            raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent who accepted this session can do that.")
        if session.status == SessionStatus.PAYMENT:  # a retry of a request that already succeeded
            return session, Payment.objects.filter(order__session=session).latest("created_at")
        if session.status in ENDED_STATUSES:
            raise DomainError(ErrorCode.SESSION_ALREADY_ENDED, "This session has already ended.")
        order = _payable_order(session)
        account_id = _charges_account(session.owner_id)
        attempt = Payment.objects.filter(order=order).count() + 1
        intent = processor.call(
            processor.client().v1.payment_intents.create,
            params={
                "amount": order.total_cents,
                "currency": order.currency.lower(),
                "payment_method_types": ["card"],
                "description": f"Order {order.number}",
                "metadata": {"order_id": str(order.pk), "session_id": session.public_id},
            },
            options={"stripe_account": account_id, "idempotency_key": f"order-{order.pk}-payment-{attempt}"},
        )
        payment = Payment.objects.create(
            order=order,
            account_id=account_id,
            intent_id=intent.id,
            client_secret=intent.client_secret,
            amount_cents=order.total_cents,
            currency=order.currency,
            status=PaymentStatus.REQUIRES_PAYMENT_METHOD,
        )
        fulfilment.move(order, OrderStatus.AWAITING_PAYMENT)
        session_services.session_move(session=session, action="send_to_payment")
        kiosk_events.payment_requested(session, payment)
    return session, payment


def _cancel_intent(payment: Payment) -> None:
    processor.call(
        processor.client().v1.payment_intents.cancel,
        payment.intent_id,
        options={"stripe_account": payment.account_id, "idempotency_key": f"cancel-{payment.intent_id}"},
    )
    payment.status = PaymentStatus.CANCELED
    payment.save(update_fields=["status"])


def payment_cancel(*, public_id: str, agent: User) -> Session:
    """Back to the cart: cancel the intent, unlock the cart, session active again."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.agent_id != agent.pk:
            raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent who accepted this session can do that.")
        session_services.session_move(session=session, action="cancel_payment")
        payment = Payment.objects.select_related("order").filter(order__session=session).latest("created_at")
        _cancel_intent(payment)
        fulfilment.move(payment.order, OrderStatus.DRAFT)
        kiosk_events.payment_cancelled(session)
    return session


def payment_abandon(*, session: Session) -> None:
    """The session ends while in payment (agent's end): cancel the open intent."""
    payment = Payment.objects.filter(order__session=session).order_by("-created_at").first()
    if payment is not None and payment.status != PaymentStatus.SUCCEEDED:
        _cancel_intent(payment)


def payment_for_kiosk(*, session: Session) -> Payment:
    """The open payment of the kiosk's session (for kiosks that missed the broadcast)."""
    if session.status != SessionStatus.PAYMENT:
        raise DomainError(ErrorCode.INVALID_STATE, "This session is not in payment.")
    return Payment.objects.filter(order__session=session).latest("created_at")


def payment_succeeded(*, payment: Payment) -> str:
    """payment_intent.succeeded: order paid and fired, session completed, kiosk told."""
    if payment.status == PaymentStatus.SUCCEEDED:
        return "already succeeded"
    payment.status, payment.succeeded_at, payment.failure_message = PaymentStatus.SUCCEEDED, timezone.now(), ""
    payment.save(update_fields=["status", "succeeded_at", "failure_message"])
    order = Order.objects.select_related("session__agent", "session__kiosk").get(pk=payment.order_id)
    fulfilment.fire(order, intent_id=payment.intent_id, amount_cents=payment.amount_cents)
    session = Session.objects.select_for_update(of=("self",)).get(pk=order.session_id)
    if session.status == SessionStatus.PAYMENT:
        session_services.session_complete_paid(session=session)
    kiosk_events.payment_succeeded(session, order)
    return "order confirmed"


def payment_failed(*, payment: Payment, message: str) -> str:
    """payment_intent.payment_failed: order failed, the kiosk stays in payment for another card.
    Never moves a succeeded payment backwards (events may arrive out of order)."""
    if payment.status in (PaymentStatus.SUCCEEDED, PaymentStatus.CANCELED):
        return f"ignored: payment already {payment.status}"
    payment.status, payment.failure_message = PaymentStatus.FAILED, message[:300]
    payment.save(update_fields=["status", "failure_message"])
    order = Order.objects.get(pk=payment.order_id)
    fulfilment.move(order, OrderStatus.FAILED)
    kiosk_events.payment_failed(Session.objects.get(pk=order.session_id), message)
    return "order failed"
