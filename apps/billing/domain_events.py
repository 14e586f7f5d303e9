"""What happens to a session's payment (apps.core.events). Only the kiosk hears of these (no
webhook: `payment.captured` is the order's event, orders/domain_events.py); the messages are
in realtime_messages.py."""

from apps.billing.models import Payment, ReaderRefusal
from apps.orders.models import Order
from apps.sessions.domain_events import _SessionEvent


class PaymentRequested(_SessionEvent):
    """The agent sent the cart to payment: the kiosk gets what it needs to take the card."""

    payment: Payment


class PaymentFailed(_SessionEvent):
    """The card was declined; the kiosk stays in payment for another card."""

    message: str = ""
    code: str = ""  # the processor's cause (decline_code, else code): the kiosk words it


class PaymentCancelled(_SessionEvent):
    """The agent took the cart back (the intent was cancelled)."""


class PaymentSucceeded(_SessionEvent):
    """The processor confirmed the payment: the order is confirmed."""

    order: Order


class ReaderPaymentNeedsCard(_SessionEvent):
    """A card was declined on the reader: the same intent goes back to it (a job after commit)."""

    payment: Payment


class PaymentChargedLate(_SessionEvent):
    """A card was approved on the reader after its payment was cancelled: refunded (a job)."""

    payment: Payment


class ReaderRefused(_SessionEvent):
    """The kiosk's card reader refused the agent's send to payment (offline, busy): the session
    stays active, and the kiosk tells the customer the agent is trying again."""

    refusal: ReaderRefusal


class ReaderActionChanged(_SessionEvent):
    """The processor reported the kiosk's card reader anew while it holds (or held) this session's
    payment: its status or its action's (waiting for the card, declined, approved). The agent
    serving the session hears it (apps/agent_app/realtime_messages.py); the kiosk reads the
    reader in its status body."""
