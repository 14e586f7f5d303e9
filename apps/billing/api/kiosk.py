"""Kiosk API: the open payment of its session (for a kiosk that missed PaymentRequested), and
self-service payment: the customer nobody has answered pays alone, or takes the payment back."""

from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers

from apps.api.operations import Answer, operation
from apps.billing import selectors as billing_selectors
from apps.billing import terminal
from apps.billing.api.agent import PaymentOut, SessionBrief
from apps.billing.models import Payment, PaymentMethod, PaymentStatus
from apps.billing.services import payments
from apps.demo_processor import mode as processor_mode
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.sessions import selectors as session_selectors
from apps.sessions.models import Session


class KioskProcessorOut(serializers.Serializer[None]):
    """How the kiosk app pays: `live` with the processor's browser library and publishable key,
    or `demo`: POST {client_secret, card_number} to `confirm_url` (a path on this service)."""

    mode = serializers.ChoiceField(choices=["live", "demo"])
    publishable_key = serializers.CharField()
    confirm_url = serializers.CharField(allow_null=True)
    notice = serializers.CharField(allow_null=True, help_text='"Demo payments: no money moves." in demo mode.')


class KioskReaderOut(serializers.Serializer[None]):
    """The card reader a card_present payment waits on."""

    label = serializers.CharField()  # type: ignore[assignment]  # a field named like Field.label (the API's word)
    status = serializers.ChoiceField(choices=terminal.READER_STATUSES)
    action_status = serializers.CharField(help_text="in_progress, succeeded, failed, canceled, or empty.")
    failure_code = serializers.CharField(
        help_text='Why the reader\'s action failed, as the processor says it (e.g. card_read_failed); "" unless failed.'
    )


class KioskPaymentOut(PaymentOut):
    # The agent's payment body, and what the kiosk pays it with.
    client_secret = serializers.CharField()
    processor_account = serializers.CharField(source="account_id")
    failure_message = serializers.CharField()
    failure_code = serializers.SerializerMethodField(
        help_text="Why the last card was not taken, as the processor says it (its decline_code, else its code: "
        'e.g. insufficient_funds, expired_card, card_declined, processing_error); "" unless the payment failed. '
        "The kiosk words the cause from it in the customer's language."
    )
    method = serializers.ChoiceField(
        choices=["card_present", "card"],
        help_text="card_present: the payment waits on the kiosk's card reader (no card fields on screen); "
        "card: the kiosk's card fields pay it with the client secret.",
    )
    reader = serializers.SerializerMethodField()
    card_fields_fallback = serializers.SerializerMethodField(
        help_text="card_present only: the owner allows paying with the kiosk's card fields instead while the reader "
        "is offline or not ready (POST .../payment/card-fields); false for a card payment."
    )
    instead_of_reader = serializers.SerializerMethodField(
        help_text="card only: the kiosk has a card reader and this card payment stands in for it (the reader "
        "could not take the payment and the owner allows the card fields): the kiosk says so above its card fields."
    )
    processor = serializers.SerializerMethodField()

    def get_instead_of_reader(self, payment: Payment) -> bool:
        kiosk_id = payment.order.session.kiosk_id
        return payment.method == PaymentMethod.CARD and billing_selectors.kiosk_has_reader(kiosk_id)

    def get_failure_code(self, payment: Payment) -> str:
        return payment.failure_code if payment.status == PaymentStatus.FAILED else ""

    def get_card_fields_fallback(self, payment: Payment) -> bool:
        if payment.method != PaymentMethod.CARD_PRESENT:
            return False
        return payments.card_fields_fallback_allowed(payment.order.session)

    @extend_schema_field(KioskReaderOut(allow_null=True))
    def get_reader(self, payment: Payment) -> billing_selectors.ReaderBrief | None:
        return billing_selectors.reader_of_payment(payment)

    @extend_schema_field(KioskProcessorOut)
    def get_processor(self, payment: Payment) -> processor_mode.KioskProcessor:
        return processor_mode.kiosk_processor(payment.intent_id)


class SessionPaymentView(KioskAPIView):
    @operation(Answer(KioskPaymentOut()))
    def get(self, request: KioskRequest, public_id: str) -> Payment:
        """The session's open payment (client secret)"""
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        return payments.payment_for_kiosk(session=session)

    @operation(
        Answer(inline_serializer("KioskSendToPaymentOut", {"session": SessionBrief(), "payment": KioskPaymentOut()}))
    )
    def post(self, request: KioskRequest, public_id: str) -> dict[str, object]:
        """Self-service: pay alone while no agent has joined

        The agent's send-to-payment flow for a waiting (pending) session: a payment intent for the
        order total on the owner's account, the session moves to `payment` and leaves the queue
        (offers withdrawn), PaymentRequested goes to the kiosk, and the processor's events complete
        it with the same `order.*` and `payment.*` webhooks. A retry while in payment answers the
        same payment. 409 SESSION_ALREADY_ACCEPTED once an agent has accepted (an accept at the
        same moment wins: the intent is cancelled), 409 ORDER_EMPTY with no cart, 409
        PROCESSOR_ACCOUNT_NOT_READY, 409 SESSION_ALREADY_ENDED."""
        session, payment = payments.payment_request_by_kiosk(public_id=public_id, kiosk=request.auth)
        return {"session": session, "payment": payment}


class CancelSelfServicePaymentView(KioskAPIView):
    @operation(Answer(inline_serializer("KioskCancelPaymentOut", {"session": SessionBrief()})))
    def post(self, request: KioskRequest, public_id: str) -> dict[str, Session]:
        """Self-service: take the payment back to the cart (and back into the queue)

        Cancels the intent; the session is pending again in its old place in the queue and the
        cart can be changed (PaymentCancelled, SessionStatusChanged). Only for a payment the
        customer started alone: 409 SESSION_ALREADY_ACCEPTED when an agent holds the session, 409
        INVALID_STATE when not in payment."""
        return {"session": payments.payment_cancel_by_kiosk(public_id=public_id, kiosk=request.auth)}


class CardFieldsFallbackView(KioskAPIView):
    @operation(Answer(KioskPaymentOut()))
    def post(self, request: KioskRequest, public_id: str) -> Payment:
        """Pay with the card fields instead of an offline or busy card reader (where the owner allows it)

        For a session in payment on the kiosk's card reader while the reader is offline or not
        holding the payment (as last reported), where the owner's order settings allow it: the
        reader's action and its intent are cancelled, and a `card` intent for the same order total
        is made; the answer is its payment body (`method: card`, a new client secret) and
        `PaymentRequested` follows. The session stays in payment. A retry answers the same card
        payment. 403 FORBIDDEN when the owner does not allow it, 409 INVALID_STATE when not in
        payment, when the reader is ready for the payment, or when the card was just approved on
        the reader (that payment stands)."""
        _, payment = payments.payment_to_card_fields(public_id=public_id, kiosk=request.auth)
        return payment
