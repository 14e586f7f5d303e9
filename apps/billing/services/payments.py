"""Send to payment and back: a PaymentIntent for the order total on the owner's connected
account (a direct charge: the money is the owner's; no application fee). Every processor call
runs outside the session's row lock (apps/billing/processor_calls.py)."""

from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.billing import processor, processor_calls
from apps.billing.domain_events import PaymentCancelled, PaymentFailed, PaymentRequested, PaymentSucceeded
from apps.billing.models import OwnerBilling, Payment, PaymentStatus
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.orders import fulfilment
from apps.orders.models import Order, OrderStatus
from apps.sessions import selectors as session_selectors
from apps.sessions import services as session_services
from apps.sessions.models import Session, SessionStatus
from apps.sessions.state_machine import next_status


def _payable_order(session: Session) -> Order:
    order = Order.objects.filter(session=session).prefetch_related("lines").first()
    if order is None or not order.lines.all() or order.total_cents <= 0:
        raise DomainError(ErrorCode.ORDER_EMPTY, "The cart is empty: add items before sending it to payment.")
    return order


def _ensure_owned(session: Session, agent: User) -> None:
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent who accepted this session can do that.")


def _charges_account(owner_id: int) -> str:
    billing = OwnerBilling.objects.filter(owner_id=owner_id).first()
    if billing is None or not billing.account_id or not billing.charges_enabled:
        raise DomainError(
            ErrorCode.PROCESSOR_ACCOUNT_NOT_READY,
            "This business cannot take card payments yet: the owner must finish processor onboarding.",
        )
    return billing.account_id


def payment_request(*, public_id: str, agent: User) -> tuple[Session, Payment]:
    """Move an active session to payment: reserve, create the intent outside any lock, record.
    A retried request (same cart total, same attempt) sends the same idempotency key, so the
    processor returns the same intent rather than a second one."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        _ensure_owned(session, agent)
        if session.status == SessionStatus.PAYMENT:  # a retry of a request that already succeeded
            return session, Payment.objects.filter(order__session=session).latest("created_at")
        next_status(session.status, "send_to_payment")
        order = _payable_order(session)
        account_id = _charges_account(session.owner_id)
        processor_api = processor.client()
        attempt = Payment.objects.filter(order=order).count() + 1
        key = f"order-{order.pk}-payment-{attempt}-{order.total_cents}"
        reservation = processor_calls.reserve(order_id=order.pk, action="send_to_payment", idempotency_key=key)
        amount, currency = order.total_cents, order.currency
    with processor_calls.released_on_failure(reservation):
        intent = processor.call(
            processor_api.v1.payment_intents.create,
            params={
                "amount": amount,
                "currency": currency.lower(),
                # The API takes it; the library's PaymentIntentCreateParams no longer lists it.
                "payment_method_types": ["card"],  # type: ignore[typeddict-unknown-key]
                "description": f"Order {order.number}",
                "metadata": {"order_id": str(order.pk), "session_id": session.public_id},
            },
            options={"stripe_account": account_id, "idempotency_key": key},
        )
        with transaction.atomic():
            session = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
            payment = Payment.objects.filter(intent_id=intent.id).first()
            if payment is not None:  # recorded by an attempt that took over an expired reservation
                processor_calls.finish(reservation)
                return session, payment
            order = Order.objects.get(pk=order.pk)
            if (order.total_cents, order.currency) != (amount, currency):
                raise DomainError(
                    ErrorCode.INVALID_STATE, "The cart changed while the payment was being set up: send it again."
                )
            payment = Payment(
                order=order,
                account_id=account_id,
                intent_id=intent.id,
                amount_cents=amount,
                currency=currency,
                status=PaymentStatus.REQUIRES_PAYMENT_METHOD,
            )
            if intent.client_secret is None:  # the processor returns it with every intent it creates
                raise DomainError(ErrorCode.PROCESSOR_ERROR, "The payment processor returned no client secret.")
            payment.client_secret = intent.client_secret  # a property (stored encrypted), not a field
            payment.save(force_insert=True)
            session_services.session_move(session=session, action="send_to_payment")
            fulfilment.move(order, OrderStatus.AWAITING_PAYMENT)
            events.emit(PaymentRequested(session, payment=payment))
            processor_calls.finish(reservation)
    return session, payment


def _cancel_intent(payment: Payment) -> None:
    """The processor call of a cancel; the caller holds a reservation and no lock."""
    processor.call(
        processor.client().v1.payment_intents.cancel,
        payment.intent_id,
        options={"stripe_account": payment.account_id, "idempotency_key": f"cancel-{payment.intent_id}"},
    )


def _record_cancel(payment: Payment) -> Order:
    payment.status = PaymentStatus.CANCELED
    payment.save(update_fields=["status"])
    return Order.objects.get(pk=payment.order_id)


def payment_cancel(*, public_id: str, agent: User) -> Session:
    """Back to the cart: cancel the intent (outside any lock), unlock the cart, session active again."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        _ensure_owned(session, agent)
        next_status(session.status, "cancel_payment")
        payment = Payment.objects.filter(order__session=session).latest("created_at")
        reservation = processor_calls.reserve(
            order_id=payment.order_id, action="cancel_payment", idempotency_key=f"cancel-{payment.intent_id}"
        )
    with processor_calls.released_on_failure(reservation):
        _cancel_intent(payment)
        with transaction.atomic():
            session = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
            session_services.session_move(session=session, action="cancel_payment")
            fulfilment.move(_record_cancel(payment), OrderStatus.DRAFT)
            events.emit(PaymentCancelled(session))
            processor_calls.finish(reservation)
    return session


def payment_abandon(*, public_id: str, agent: User, reason: str, notes: str) -> Session:
    """The agent ends a session in payment: its open intent is cancelled first (outside any
    lock), then the session ends. If the processor fails, the session stays in payment."""
    with transaction.atomic():
        session = session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True)
        if session.status != SessionStatus.PAYMENT:  # moved since session_end looked: an ordinary end
            session_services.session_end_locked(session=session, agent=agent, reason=reason, notes=notes)
            return session
        _ensure_owned(session, agent)
        next_status(session.status, f"end:{reason}")  # a refused reason never reaches the processor
        payment = Payment.objects.filter(order__session=session).order_by("-created_at").first()
        if payment is None or payment.status in (PaymentStatus.SUCCEEDED, PaymentStatus.CANCELED):
            session_services.session_end_locked(session=session, agent=agent, reason=reason, notes=notes)
            return session
        reservation = processor_calls.reserve(
            order_id=payment.order_id, action="end_payment", idempotency_key=f"cancel-{payment.intent_id}"
        )
    with processor_calls.released_on_failure(reservation):
        _cancel_intent(payment)
        with transaction.atomic():
            session = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
            session_services.session_end_locked(session=session, agent=agent, reason=reason, notes=notes)
            _record_cancel(payment)
            processor_calls.finish(reservation)
    return session


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
    events.emit(PaymentSucceeded(session, order=order))
    return "order confirmed"


def payment_failed(*, payment: Payment, message: str, code: str = "") -> str:
    """payment_intent.payment_failed: order failed, the kiosk stays in payment for another card.
    `code` is the processor's cause (decline_code, else code). Never moves a succeeded payment
    backwards (events may arrive out of order)."""
    if payment.status in (PaymentStatus.SUCCEEDED, PaymentStatus.CANCELED):
        return f"ignored: payment already {payment.status}"
    payment.status, payment.failure_message, payment.failure_code = PaymentStatus.FAILED, message[:300], code[:60]
    payment.save(update_fields=["status", "failure_message", "failure_code"])
    order = Order.objects.get(pk=payment.order_id)
    fulfilment.move(order, OrderStatus.FAILED)
    events.emit(PaymentFailed(Session.objects.get(pk=order.session_id), message=message))
    return "order failed"
