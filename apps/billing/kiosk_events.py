"""Real-time events to the kiosk about its payment (docs/realtime.md). Sent after commit by the
broadcast API, so a rolled-back change tells the kiosk nothing."""

from apps.billing.models import Payment
from apps.demo_processor import mode as processor_mode
from apps.orders.models import Order
from apps.sessions.models import Session


def _kiosk_channel(session: Session) -> list[str]:
    return [f"private-kiosk.{session.kiosk_id}"]


def broadcast(channels: list[str], event: str, data: dict) -> None:
    from apps.realtime.broadcast import broadcast as send  # realtime is wired in after billing loads

    send(channels, event, data)


def payment_requested(session: Session, payment: Payment) -> None:
    broadcast(
        _kiosk_channel(session),
        "PaymentRequested",
        {
            "session_id": session.public_id,
            "client_secret": payment.client_secret,
            "amount_cents": payment.amount_cents,
            "currency": payment.currency,
            "processor_account": payment.account_id,
            "processor": processor_mode.kiosk_processor(payment.intent_id),
        },
    )


def payment_failed(session: Session, message: str) -> None:
    broadcast(_kiosk_channel(session), "PaymentFailed", {"session_id": session.public_id, "message": message})


def payment_cancelled(session: Session) -> None:
    broadcast(_kiosk_channel(session), "PaymentCancelled", {"session_id": session.public_id})


def payment_succeeded(session: Session, order: Order) -> None:
    broadcast(
        _kiosk_channel(session),
        "PaymentSucceeded",
        {"session_id": session.public_id, "order_number": order.number, "total_cents": order.total_cents},
    )
