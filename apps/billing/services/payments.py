"""Send to payment and back: a PaymentIntent for the order total on the owner's connected
account (a direct charge: the money is the owner's; no application fee). Every processor call
runs outside the session's row lock (apps/billing/processor_calls.py)."""

import logging
from collections.abc import Callable
from dataclasses import dataclass

import stripe
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import User
from apps.billing import processor, processor_calls, terminal
from apps.billing import selectors as billing_selectors
from apps.billing.domain_events import (
    PaymentCancelled,
    PaymentChargedLate,
    PaymentFailed,
    PaymentRequested,
    PaymentSucceeded,
    ReaderPaymentNeedsCard,
)
from apps.billing.models import CardReader, Payment, PaymentMethod, PaymentStatus, ProcessorCall
from apps.billing.services import reader_refusals, readers
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.kiosks.models import Kiosk
from apps.orders import fulfilment
from apps.orders import selectors as order_selectors
from apps.orders.models import Order, OrderStatus
from apps.sessions import seats, status_cache
from apps.sessions import selectors as session_selectors
from apps.sessions import services as session_services
from apps.sessions.models import Session, SessionStatus
from apps.sessions.state_machine import next_status

logger = logging.getLogger(__name__)


def _payable_order(session: Session) -> Order:
    order = Order.objects.filter(session=session).prefetch_related("lines").first()
    if order is None or not order.lines.all() or order.total_cents <= 0:
        raise DomainError(ErrorCode.ORDER_EMPTY, "The cart is empty: add items before sending it to payment.")
    return order


def _ensure_owned(session: Session, agent: User) -> None:
    if session.agent_id != agent.pk:
        raise DomainError(ErrorCode.SESSION_NOT_OWNED, "Only the agent who accepted this session can do that.")


# How one caller may move a session to payment and back: who it is (the session read under
# its row lock, refusing anyone else) and the session's moves (sessions' services).
@dataclass(frozen=True)
class _PaymentCaller:
    locked_session: Callable[[], Session]
    check: Callable[[Session], None]  # run again in step 3: the session may have moved meanwhile
    to_payment: Callable[[Session], None]
    back_from_payment: Callable[[Session], None]
    send_action: str
    cancel_action: str
    # The agent's send refused by the reader is kept for the kiosk to say (reader_refusals); the
    # customer alone reads it in the answer to their own Pay.
    keeps_reader_refusal: bool = False


def _agent_caller(agent: User, public_id: str) -> _PaymentCaller:
    return _PaymentCaller(
        locked_session=lambda: session_selectors.session_visible_to_agent(agent=agent, public_id=public_id, lock=True),
        check=lambda session: _ensure_owned(session, agent),
        to_payment=lambda session: session_services.session_move(session=session, action="send_to_payment"),
        back_from_payment=lambda session: session_services.session_move(session=session, action="cancel_payment"),
        send_action="send_to_payment",
        cancel_action="cancel_payment",
        keeps_reader_refusal=True,
    )


def _ensure_alone(session: Session) -> None:
    """Self-service: only while no agent holds the session (an accept wins the cart)."""
    if session.agent_id is not None:
        raise DomainError(
            ErrorCode.SESSION_ALREADY_ACCEPTED,
            "An agent has joined this session: the agent takes the order to payment from now on.",
        )


def _kiosk_caller(kiosk: Kiosk, public_id: str) -> _PaymentCaller:
    return _PaymentCaller(
        locked_session=lambda: session_selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=True),
        check=_ensure_alone,
        to_payment=lambda session: session_services.session_pay_alone(session=session),
        back_from_payment=lambda session: session_services.session_back_to_queue(session=session),
        send_action="self_service_payment",
        cancel_action="self_service_cancel_payment",
    )


def payment_request(*, public_id: str, agent: User) -> tuple[Session, Payment]:
    """The accepting agent sends the active session's cart to payment."""
    return _request(_agent_caller(agent, public_id))


def payment_request_by_kiosk(*, public_id: str, kiosk: Kiosk) -> tuple[Session, Payment]:
    """Self-service: the customer nobody has answered pays alone. The same flow as the agent's;
    the session leaves the queue (sessions' session_pay_alone). If an agent accepts while the
    intent is being created, the accept wins: the intent is cancelled and the kiosk gets 409
    SESSION_ALREADY_ACCEPTED."""
    return _request(_kiosk_caller(kiosk, public_id))


class _SessionMovedOn(Exception):
    """Step 3 found the caller may no longer send this session to payment (an agent accepted the
    self-service customer, or another agent holds the session now): the intent is nobody's."""

    def __init__(self, error: DomainError, intent_id: str, account_id: str) -> None:
        super().__init__(error.message)
        self.error, self.intent_id, self.account_id = error, intent_id, account_id


def _request(caller: _PaymentCaller) -> tuple[Session, Payment]:
    """Move an open session to payment: reserve, create the intent outside any lock, record.
    A retried request (same cart total, same attempt) sends the same idempotency key, so the
    processor returns the same intent rather than a second one."""
    with transaction.atomic():
        session = caller.locked_session()
        caller.check(session)
        if session.status == SessionStatus.PAYMENT:  # a retry of a request that already succeeded
            return session, Payment.objects.filter(order__session=session).latest("created_at")
        next_status(session.status, caller.send_action)
        order = _payable_order(session)
        account_id = billing_selectors.charges_account(session.owner_id)
        processor.client()  # not configured: refused before anything is reserved
        attempt = Payment.objects.filter(order=order).count() + 1
        reader = CardReader.objects.filter(kiosk_id=session.kiosk_id).first()
        # A reader's intent is another intent (card_present): its own key.
        key = f"order-{order.pk}-payment-{attempt}-{order.total_cents}" + ("-reader" if reader else "")
        reservation = processor_calls.reserve(order_id=order.pk, action="send_to_payment", idempotency_key=key)
        fallback = reader is not None and card_fields_fallback_allowed(session)
    try:
        return _create_and_record(
            caller, session, order, reservation, key=key, account_id=account_id, reader=reader, fallback=fallback
        )
    except _SessionMovedOn as moved_on:
        _cancel_quietly(moved_on.intent_id, moved_on.account_id)
        raise moved_on.error from None
    except DomainError as refused:
        # The reservation is released and nothing of the payment recorded; the kiosk is told.
        if reader is not None and caller.keeps_reader_refusal and refused.code in reader_refusals.REASONS:
            reader_refusals.record(session=session, reader=reader, code=refused.code, check=caller.check)
        raise


def _hand_to_reader(reader: CardReader, intent_id: str, account_id: str) -> terminal.ReaderState:
    """Give the intent to the kiosk's reader, which asks for a card. A reader that is offline or
    busy is 409 READER_OFFLINE / READER_BUSY (its status recorded) and nothing else changes: the
    intent, never given to anyone, is the one a retry gets again (same idempotency key)."""
    try:
        return terminal.process_payment_intent(account_id=account_id, reader_id=reader.reader_id, intent_id=intent_id)
    except DomainError as exc:
        if exc.code == ErrorCode.READER_OFFLINE:
            with transaction.atomic():
                CardReader.objects.filter(pk=reader.pk).update(status="offline", reported_at=timezone.now())
        raise


def _intent_create(order: Order, session: Session, method: str, *, account_id: str, key: str) -> stripe.PaymentIntent:
    return processor.call(
        processor.client().v1.payment_intents.create,
        params={
            "amount": order.total_cents,
            "currency": order.currency.lower(),
            # The API takes it; the library's PaymentIntentCreateParams no longer lists it.
            "payment_method_types": [method],  # type: ignore[typeddict-unknown-key]
            "description": f"Order {order.number}",
            "metadata": {"order_id": str(order.pk), "session_id": session.public_id},
        },
        options={"stripe_account": account_id, "idempotency_key": key},
    )


def _reader_or_card_fields(
    order: Order, session: Session, reader: CardReader, *, account_id: str, key: str, fallback: bool
) -> tuple[stripe.PaymentIntent, terminal.ReaderState | None]:
    """Step 2 with a reader: the card_present intent, handed to the reader. A reader that refuses
    it (offline, busy) is 409 READER_OFFLINE / READER_BUSY, unless the owner allows the card
    fields: then that intent, never given to anyone, is cancelled and a `card` intent made in its
    place (key `fallback-card-<reader intent>`, as the in-payment fallback's). A retry replays the
    same reader intent (the processor answers a replay as it answered first): found cancelled when
    the reader refuses it, it was such a fallback cut short, which goes on to the same card intent."""
    intent = _intent_create(order, session, PaymentMethod.CARD_PRESENT, account_id=account_id, key=key)
    try:
        return intent, _hand_to_reader(reader, intent.id, account_id)
    except DomainError as exc:
        if not fallback:
            raise
        if exc.code in (ErrorCode.READER_OFFLINE, ErrorCode.READER_BUSY):
            logger.info("reader %s refused payment %s (%s): card fields instead", reader.reader_id, intent.id, exc.code)
            _cancel_intent_of(intent.id, account_id)
        elif exc.code != ErrorCode.PROCESSOR_ERROR or not _cancelled(intent.id, account_id):
            raise
    card = _intent_create(order, session, PaymentMethod.CARD, account_id=account_id, key=f"fallback-card-{intent.id}")
    return card, None


def _cancelled(intent_id: str, account_id: str) -> bool:
    return processor.intent_retrieve(intent_id=intent_id, account_id=account_id)["status"] == "canceled"


def _create_and_record(
    caller: _PaymentCaller,
    session: Session,
    order: Order,
    reservation: ProcessorCall,
    *,
    key: str,
    account_id: str,
    reader: CardReader | None,
    fallback: bool = False,
) -> tuple[Session, Payment]:
    """Steps 2 and 3 of a send to payment (processor_calls). With a reader, the intent is for
    card_present and is handed to the reader before it is recorded (step 2), or replaced by a
    card intent where the owner allows it (`fallback`)."""
    amount, currency = order.total_cents, order.currency
    with processor_calls.released_on_failure(reservation):
        reader_state: terminal.ReaderState | None = None
        if reader is None:
            intent = _intent_create(order, session, PaymentMethod.CARD, account_id=account_id, key=key)
        else:
            intent, reader_state = _reader_or_card_fields(
                order, session, reader, account_id=account_id, key=key, fallback=fallback
            )
        method = PaymentMethod.CARD if reader_state is None else PaymentMethod.CARD_PRESENT
        with transaction.atomic():
            session = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
            try:
                caller.check(session)
            except DomainError as refused:  # e.g. an agent accepted while the intent was made
                raise _SessionMovedOn(refused, intent.id, account_id) from None
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
                method=method,
                reader=reader if method == PaymentMethod.CARD_PRESENT else None,
            )
            if intent.client_secret is None:  # the processor returns it with every intent it creates
                raise DomainError(ErrorCode.PROCESSOR_ERROR, "The payment processor returned no client secret.")
            payment.client_secret = intent.client_secret  # a property (stored encrypted), not a field
            payment.save(force_insert=True)
            if reader is not None and reader_state is not None:
                readers.record_by_id(reader.reader_id, reader_state)
            caller.to_payment(session)
            fulfilment.move(order, OrderStatus.AWAITING_PAYMENT)
            events.emit(PaymentRequested(session, payment=payment))
            processor_calls.finish(reservation)
    return session, payment


def _cancel_intent(payment: Payment) -> bool:
    """The processor calls of a cancel; the caller holds a reservation and no lock. A reader
    holding the payment gives it up first. True when the cancel went through; False when the
    card was approved on the reader meanwhile (the intent succeeded): the caller records the
    cancel all the same and the charge is refunded (`_charged_late`)."""
    if payment.method == PaymentMethod.CARD_PRESENT:
        _cancel_reader_action(payment)
    try:
        _cancel_intent_of(payment.intent_id, payment.account_id)
    except DomainError as exc:
        if payment.method != PaymentMethod.CARD_PRESENT or exc.code != ErrorCode.PROCESSOR_ERROR:
            raise
        intent = processor.intent_retrieve(intent_id=payment.intent_id, account_id=payment.account_id)
        if intent["status"] != "succeeded":
            raise
        return False
    return True


def _cancel_reader_action(payment: Payment) -> None:
    """Stop the reader asking for a card for this payment. An offline reader cannot take the card
    (and the intent is cancelled next): logged, not fatal."""
    reader = None if payment.reader_id is None else CardReader.objects.filter(pk=payment.reader_id).first()
    if reader is None or reader.action_intent_id != payment.intent_id:
        return
    try:
        state = terminal.cancel_action(account_id=reader.account_id, reader_id=reader.reader_id)
    except DomainError as exc:
        if exc.code not in (ErrorCode.READER_OFFLINE, ErrorCode.READER_BUSY):
            raise
        logger.warning("reader %s not told to stop payment %s: %s", reader.reader_id, payment.intent_id, exc.code)
        return
    readers.record_by_id(reader.reader_id, state)


def _cancel_intent_of(intent_id: str, account_id: str) -> None:
    processor.call(
        processor.client().v1.payment_intents.cancel,
        intent_id,
        options={"stripe_account": account_id, "idempotency_key": f"cancel-{intent_id}"},
    )


def _cancel_quietly(intent_id: str, account_id: str) -> None:
    """Cancel an intent nobody will pay (its client secret was never given out); a failure is
    only logged: the intent can never be confirmed without its secret, and lapses by itself."""
    try:
        _cancel_intent_of(intent_id, account_id)
    except DomainError as exc:
        logger.warning("intent %s of a lost self-service payment not cancelled: %s", intent_id, exc.code)


def _record_cancel(payment: Payment, *, cancelled: bool = True) -> Order:
    payment = Payment.objects.select_for_update().get(pk=payment.pk)
    if payment.status != PaymentStatus.SUCCEEDED:  # else its success event won the race: it stands
        payment.status = PaymentStatus.CANCELED
        payment.save(update_fields=["status"])
        if not cancelled:
            _charged_late(payment)
    return Order.objects.get(pk=payment.order_id)


def _charged_late(payment: Payment) -> str:
    """A card approved for a payment already cancelled (its session went back to the cart or
    ended): no order is made, and the charge is refunded after commit (refunds.refund_late);
    logged, and counted in /metrics (kiosk_payments_refunded_late)."""
    if payment.late_success_at is None:
        payment.late_success_at = timezone.now()
        payment.save(update_fields=["late_success_at"])
        logger.warning(
            "payment %s of order %s was charged after it was cancelled: refunding it",
            payment.intent_id,
            payment.order_id,
        )
    order = Order.objects.select_related("session").get(pk=payment.order_id)
    events.emit(PaymentChargedLate(order.session, payment=payment))  # its subscriber queues the refund
    return "charged after cancel: refund"


def payment_cancel(*, public_id: str, agent: User) -> Session:
    """Back to the cart: cancel the intent (outside any lock), unlock the cart, session active again."""
    return _cancel(_agent_caller(agent, public_id))


def payment_cancel_by_kiosk(*, public_id: str, kiosk: Kiosk) -> Session:
    """Self-service: the customer takes the payment back; the session is pending again, back in
    its place in the queue, and the cart can be changed."""
    return _cancel(_kiosk_caller(kiosk, public_id))


def _cancel(caller: _PaymentCaller) -> Session:
    with transaction.atomic():
        session = caller.locked_session()
        caller.check(session)
        next_status(session.status, caller.cancel_action)
        seats.ensure_payment_can_be_taken_back(session)  # before the processor cancels anything
        payment = Payment.objects.filter(order__session=session).latest("created_at")
        reservation = processor_calls.reserve(
            order_id=payment.order_id, action="cancel_payment", idempotency_key=f"cancel-{payment.intent_id}"
        )

    def back_to_cart(session: Session, cancelled: bool) -> None:
        caller.back_from_payment(session)
        fulfilment.move(_record_cancel(payment, cancelled=cancelled), OrderStatus.DRAFT)
        events.emit(PaymentCancelled(session))

    try:
        return _cancel_reserved(reservation, payment, session, back_to_cart)
    except Exception:
        seats.release_take_back_hold(session)
        raise


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

    def end(session: Session, cancelled: bool) -> None:
        session_services.session_end_locked(session=session, agent=agent, reason=reason, notes=notes)
        _record_cancel(payment, cancelled=cancelled)

    return _cancel_reserved(reservation, payment, session, end)


def _cancel_reserved(
    reservation: ProcessorCall, payment: Payment, session: Session, then: Callable[[Session, bool], None]
) -> Session:
    """Cancel the reserved intent outside any lock, then lock the session again and record the
    outcome with `then`; if the processor fails, the reservation is released and nothing changes."""
    with processor_calls.released_on_failure(reservation):
        cancelled = _cancel_intent(payment)
        with transaction.atomic():
            session = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
            then(session, cancelled)
            processor_calls.finish(reservation)
    return session


def payment_for_kiosk(*, session: Session) -> Payment:
    """The open payment of the kiosk's session (for kiosks that missed the broadcast)."""
    if session.status != SessionStatus.PAYMENT:
        raise DomainError(ErrorCode.INVALID_STATE, "This session is not in payment.")
    return Payment.objects.filter(order__session=session).latest("created_at")


def payment_succeeded(*, payment: Payment, card: processor.CardState | None = None) -> str:
    """payment_intent.succeeded: order paid and fired, session completed, kiosk told. `card` is
    the card that paid when the processor said it (the receipt shows "Visa ending 4242")."""
    if payment.status == PaymentStatus.SUCCEEDED:
        return "already succeeded"
    if payment.status == PaymentStatus.CANCELED:  # the session went on without this payment
        return _charged_late(payment)
    payment.status, payment.succeeded_at, payment.failure_message = PaymentStatus.SUCCEEDED, timezone.now(), ""
    if card is not None:
        payment.card_brand, payment.card_last4 = card["brand"], card["last4"]
        payment.card_read_method = card.get("read_method", "")
        payment.card_application_name = card.get("application_name", "")
        payment.card_application_id = card.get("application_id", "")
    payment.save(
        update_fields=[
            "status",
            "succeeded_at",
            "failure_message",
            "card_brand",
            "card_last4",
            "card_read_method",
            "card_application_name",
            "card_application_id",
        ]
    )
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
    session = Session.objects.get(pk=order.session_id)
    events.emit(PaymentFailed(session, message=message, code=payment.failure_code))
    status_cache.session_moved(session.public_id)  # the status body's payment carries the cause
    if payment.method == PaymentMethod.CARD_PRESENT:
        reader_take_again_on_commit(payment)
    return "order failed"


def reader_take_again_on_commit(payment: Payment) -> None:
    """After a declined card, the same intent goes back to the reader for another card (its
    subscriber queues reader_take_payment_again after commit)."""
    order = Order.objects.select_related("session").get(pk=payment.order_id)
    events.emit(ReaderPaymentNeedsCard(order.session, payment=payment))


def reader_take_payment_again(payment_id: int) -> str:
    """Hand a waiting card_present payment back to its reader, unless the reader already holds
    it or the session has left payment. Safe to run twice; no transaction is held across calls."""
    payment = Payment.objects.select_related("order__session").filter(pk=payment_id).first()
    if payment is None or payment.status not in (PaymentStatus.REQUIRES_PAYMENT_METHOD, PaymentStatus.FAILED):
        return "not waiting"
    if payment.order.session.status != SessionStatus.PAYMENT:
        return "session not in payment"
    reader = None if payment.reader_id is None else CardReader.objects.filter(pk=payment.reader_id).first()
    if reader is None:
        return "no reader"
    try:
        current = terminal.reader_retrieve(account_id=reader.account_id, reader_id=reader.reader_id)
        action = current["action"]
        if not (action and action["status"] == "in_progress" and action["payment_intent"] == payment.intent_id):
            current = terminal.process_payment_intent(
                account_id=reader.account_id, reader_id=reader.reader_id, intent_id=payment.intent_id
            )
    except DomainError as exc:
        logger.warning("payment %s not handed back to reader %s: %s", payment.intent_id, reader.reader_id, exc.code)
        if exc.code == ErrorCode.READER_OFFLINE:
            CardReader.objects.filter(pk=reader.pk).update(status="offline", reported_at=timezone.now())
        return f"not handed back: {exc.code}"
    readers.record_by_id(reader.reader_id, current)
    return "handed back"


def _reader_holds(payment: Payment) -> bool:
    """Whether the payment's reader, as last reported, is online and asking for a card for it."""
    reader = None if payment.reader_id is None else CardReader.objects.filter(pk=payment.reader_id).first()
    return bool(
        reader is not None
        and reader.status == "online"
        and reader.action_status == "in_progress"
        and reader.action_intent_id == payment.intent_id
    )


def card_fields_fallback_allowed(session: Session) -> bool:
    """The owner lets the kiosk pay with its card fields when its reader cannot take the card."""
    return order_selectors.order_settings_of(session.kiosk.business_id).card_fields_fallback


def payment_to_card_fields(*, public_id: str, kiosk: Kiosk) -> tuple[Session, Payment]:
    """The kiosk's reader is offline or busy and the owner allows the card fields instead: the
    reader's payment is cancelled (its action first), then a `card` intent for the same order
    total is made and recorded; the session stays in payment. Nothing is charged twice: if the
    card was approved on the reader meanwhile, that payment stands (its event confirms the
    order) and the fallback is refused. A retry after the fallback answers the card payment."""
    with transaction.atomic():
        session = session_selectors.session_for_kiosk(kiosk=kiosk, public_id=public_id, lock=True)
        if session.status != SessionStatus.PAYMENT:
            raise DomainError(ErrorCode.INVALID_STATE, "This session is not in payment.")
        payment = Payment.objects.filter(order__session=session).latest("created_at")
        if payment.method == PaymentMethod.CARD and payment.status != PaymentStatus.SUCCEEDED:
            return session, payment  # a retry: the fallback was made
        if not card_fields_fallback_allowed(session):
            raise DomainError(
                ErrorCode.FORBIDDEN, "The owner has not allowed paying with the card fields instead of the card reader."
            )
        if payment.status not in (PaymentStatus.REQUIRES_PAYMENT_METHOD, PaymentStatus.FAILED):
            raise DomainError(ErrorCode.INVALID_STATE, "This payment is not waiting for a card.")
        if _reader_holds(payment):
            raise DomainError(ErrorCode.INVALID_STATE, "The card reader is ready for this payment: pay on the reader.")
        order = Order.objects.get(pk=payment.order_id)
        reservation = processor_calls.reserve(
            order_id=order.pk, action="card_fields_fallback", idempotency_key=f"fallback-{payment.intent_id}"
        )
    with processor_calls.released_on_failure(reservation):
        if not _cancel_intent(payment):  # approved on the reader just now: that payment stands
            raise DomainError(ErrorCode.INVALID_STATE, "The card was just approved on the reader.")
        intent = processor.call(
            processor.client().v1.payment_intents.create,
            params={
                "amount": payment.amount_cents,
                "currency": payment.currency.lower(),
                "payment_method_types": ["card"],  # type: ignore[typeddict-unknown-key]
                "description": f"Order {order.number}",
                "metadata": {"order_id": str(order.pk), "session_id": session.public_id},
            },
            options={"stripe_account": payment.account_id, "idempotency_key": f"fallback-card-{payment.intent_id}"},
        )
        if intent.client_secret is None:
            raise DomainError(ErrorCode.PROCESSOR_ERROR, "The payment processor returned no client secret.")
        with transaction.atomic():
            session = Session.objects.select_for_update(of=("self",)).get(pk=session.pk)
            _record_cancel(payment)
            card = Payment.objects.filter(intent_id=intent.id).first()
            if card is None:
                card = Payment(
                    order=order,
                    account_id=payment.account_id,
                    intent_id=intent.id,
                    amount_cents=payment.amount_cents,
                    currency=payment.currency,
                    status=PaymentStatus.REQUIRES_PAYMENT_METHOD,
                    method=PaymentMethod.CARD,
                    reader=None,
                )
                card.client_secret = intent.client_secret
                card.save(force_insert=True)
            processor_calls.finish(reservation)
            events.emit(PaymentRequested(session, payment=card))
            status_cache.session_moved(session.public_id)
    return session, card
