"""Real-time messages to the kiosk about its payment (docs/realtime.md): subscribers of
config/event_subscribers.py, sent after commit by the broadcast API, so a rolled-back change
tells the kiosk nothing."""

from apps.billing import selectors as billing_selectors
from apps.billing.domain_events import (
    PaymentCancelled,
    PaymentFailed,
    PaymentRequested,
    PaymentSucceeded,
    ReaderRefused,
)
from apps.core.models import DomainEvent
from apps.demo_processor import mode as processor_mode
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import kiosk_channel


def payment_requested(event: PaymentRequested, recorded: DomainEvent | None = None) -> None:
    session, payment = event.session, event.payment
    broadcast(
        [kiosk_channel(session.kiosk_id)],
        "PaymentRequested",
        {
            "session_id": session.public_id,
            "client_secret": payment.client_secret,
            "amount_cents": payment.amount_cents,
            "currency": payment.currency,
            "processor_account": payment.account_id,
            "processor": processor_mode.kiosk_processor(payment.intent_id),
            "method": payment.method,
            "reader": billing_selectors.reader_of_payment(payment),
        },
    )


def payment_failed(event: PaymentFailed, recorded: DomainEvent | None = None) -> None:
    session = event.session
    broadcast(
        [kiosk_channel(session.kiosk_id)],
        "PaymentFailed",
        {"session_id": session.public_id, "message": event.message, "failure_code": event.code},
    )


def payment_cancelled(event: PaymentCancelled, recorded: DomainEvent | None = None) -> None:
    session = event.session
    broadcast([kiosk_channel(session.kiosk_id)], "PaymentCancelled", {"session_id": session.public_id})


def payment_succeeded(event: PaymentSucceeded, recorded: DomainEvent | None = None) -> None:
    session, order = event.session, event.order
    broadcast(
        [kiosk_channel(session.kiosk_id)],
        "PaymentSucceeded",
        {"session_id": session.public_id, "order_number": order.number, "total_cents": order.total_cents},
    )


def reader_refused(event: ReaderRefused, recorded: DomainEvent | None = None) -> None:
    """The status body's `reader_refusal`, as it is recorded (a transition clears it: the next
    SessionStatusChanged carries null)."""
    session = event.session
    broadcast(
        [kiosk_channel(session.kiosk_id)],
        "ReaderRefused",
        {"session_id": session.public_id, "reader_refusal": dict(billing_selectors.reader_refusal_body(event.refusal))},
    )
