"""The payment processor, seen from the service: each owner's connected account (where customer
money goes, never through us), customer payments and refunds, processor events received, and the
owner's own subscription to the service (plan, dunning)."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.core import secret_box


class Plan(models.TextChoices):
    FREE = "free", _("Free")
    PRO = "pro", _("Pro")


class OwnerBilling(models.Model):
    owner = models.OneToOneField("accounts.Owner", on_delete=models.CASCADE, related_name="billing")
    # Connected account: the owner's own processor account (direct charges, no application fee).
    account_id = models.CharField(max_length=64, blank=True, db_index=True)
    charges_enabled = models.BooleanField(default=False)
    payouts_enabled = models.BooleanField(default=False)
    requirements_status = models.CharField(
        max_length=20, default="none", help_text="none, complete, under_review, restricted"
    )
    account_updated_at = models.DateTimeField(null=True, blank=True, help_text="Processor time of the last update.")
    # The owner's subscription to the service.
    plan = models.CharField(max_length=10, choices=Plan.choices, default=Plan.FREE)
    customer_id = models.CharField(max_length=64, blank=True, db_index=True)
    subscription_id = models.CharField(max_length=64, blank=True)
    subscription_status = models.CharField(max_length=20, default="none")
    dunning = models.BooleanField(default=False, help_text="The last invoice failed: show the banner.")
    subscription_updated_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"billing of {self.owner_id}"


class PaymentStatus(models.TextChoices):
    REQUIRES_PAYMENT_METHOD = "requires_payment_method", _("Requires Payment Method")
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")  # the last card was declined; the customer may try another
    CANCELED = "canceled", _("Canceled")


class PaymentMethod(models.TextChoices):
    CARD = "card", _("Card")  # the kiosk's card fields (card not present)
    CARD_PRESENT = "card_present", _("Card Present")  # the kiosk's card reader


class Payment(models.Model):
    """One payment intent on the owner's connected account for one order."""

    order = models.ForeignKey("orders.Order", on_delete=models.CASCADE, related_name="payments")
    account_id = models.CharField(max_length=64)
    intent_id = models.CharField(max_length=64, unique=True)
    # The intent's client secret lets whoever holds it pay (and read) the intent: kept as a Fernet
    # token under WEBHOOK_SECRET_KEYS (apps.core.secret_box); `client_secret` reads and writes it.
    encrypted_client_secret = models.TextField()
    amount_cents = models.PositiveIntegerField()
    currency = models.CharField(max_length=3)
    status = models.CharField(max_length=30, choices=PaymentStatus.choices)
    failure_message = models.CharField(max_length=300, blank=True)
    # The processor's cause of the last failure (its decline_code, else its error code: e.g.
    # insufficient_funds, processing_error), so the agent is told what happened in words.
    failure_code = models.CharField(max_length=60, blank=True)
    # How it was paid, when the processor says it (the intent's latest charge's card): shown on
    # the receipt as "Visa ending 4242"; blank when unknown.
    card_brand = models.CharField(max_length=20, blank=True)
    card_last4 = models.CharField(max_length=4, blank=True)
    # A card read by a reader: how (the processor's read_method) and, for a chip, the card's
    # application (its name and identifier, the AID), as a card-present receipt shows them.
    card_read_method = models.CharField(max_length=30, blank=True)
    card_application_name = models.CharField(max_length=40, blank=True)
    card_application_id = models.CharField(max_length=32, blank=True)
    method = models.CharField(max_length=20, choices=PaymentMethod.choices, default=PaymentMethod.CARD)
    # The reader the intent was handed to (card_present), kept when the reader is later removed.
    reader = models.ForeignKey("billing.CardReader", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    succeeded_at = models.DateTimeField(null=True, blank=True)
    # Set when the reconciliation sweep (apps/billing/services/reconciliation.py) settled this
    # payment from the processor's record because its event had not arrived: shown to the owner.
    reconciled_at = models.DateTimeField(null=True, blank=True)
    reconciled_outcome = models.CharField(max_length=20, blank=True, help_text="confirmed or failed")
    # A card approved on the reader after the payment was cancelled or its session ended (the
    # customer walked away): no order is made, the charge is refunded (a Refund with
    # LATE_SUCCESS_REASON); set until then so the sweep retries a refund that failed.
    late_success_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return self.intent_id

    @property
    def client_secret(self) -> str:
        return secret_box.decrypt(self.encrypted_client_secret) if self.encrypted_client_secret else ""

    @client_secret.setter
    def client_secret(self, value: str) -> None:
        self.encrypted_client_secret = secret_box.encrypt(value)


# The reason of the automatic refund of a card charged after its payment was cancelled.
LATE_SUCCESS_REASON = "Charged after the payment was cancelled: refunded automatically."


class Refund(models.Model):
    order = models.ForeignKey("orders.Order", on_delete=models.CASCADE, related_name="refunds")
    payment = models.ForeignKey(Payment, on_delete=models.CASCADE, related_name="refunds")
    refund_id = models.CharField(max_length=64, unique=True)
    amount_cents = models.PositiveIntegerField()
    reason = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey("accounts.User", null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.refund_id


class ProcessorEvent(models.Model):
    """Every processor event handled, by id: a redelivered event is recognised and ignored."""

    event_id = models.CharField(max_length=100, unique=True)
    type = models.CharField(max_length=100)
    endpoint = models.CharField(max_length=10, help_text="platform or connect")
    account_id = models.CharField(max_length=64, blank=True)
    created = models.DateTimeField(help_text="When the processor created the event.")
    received_at = models.DateTimeField(default=timezone.now)
    outcome = models.CharField(max_length=200, blank=True)

    def __str__(self) -> str:
        return f"{self.type} {self.event_id}"


class PlatformFee(models.Model):
    """application_fee.created, recorded for audit (the service takes no fee: expected zero)."""

    fee_id = models.CharField(max_length=64, unique=True)
    account_id = models.CharField(max_length=64, blank=True)
    amount_cents = models.IntegerField()
    currency = models.CharField(max_length=3)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.fee_id


class ProcessorCall(models.Model):
    """A processor call in flight for an order (send to payment, cancel, end in payment, refund),
    reserved in a short transaction before the call and deleted in the transaction that records
    its result, or at once when it fails. While it lives, the order's other payment changes
    answer 409 PROCESSOR_CALL_IN_PROGRESS. One left behind by a crashed process stops counting at
    `expires_at`; the next attempt sends the same idempotency key, so it cannot act twice."""

    order = models.OneToOneField("orders.Order", on_delete=models.CASCADE, related_name="processor_call")
    action = models.CharField(max_length=20)
    idempotency_key = models.CharField(max_length=100)
    started_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.action} {self.idempotency_key}"


class ReaderLocation(models.Model):
    """The processor's Terminal location of a business, on the owner's connected account: where
    the business's card readers are registered."""

    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="reader_locations")
    account_id = models.CharField(max_length=64)
    location_id = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["business", "account_id"], name="reader_location_per_business_account")
        ]

    def __str__(self) -> str:
        return self.location_id


class CardReader(models.Model):
    """A kiosk's card reader, registered on the owner's connected account. Its status and last
    action are what the processor last reported (its answers and terminal.reader.* events)."""

    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="card_readers")
    kiosk = models.OneToOneField("kiosks.Kiosk", on_delete=models.CASCADE, related_name="card_reader")
    account_id = models.CharField(max_length=64)
    reader_id = models.CharField(max_length=64, unique=True)
    label = models.CharField(max_length=100)
    device_type = models.CharField(max_length=40, blank=True)
    status = models.CharField(max_length=10, default="online", help_text="online or offline, as reported")
    # The reader's last action (e.g. process_payment_intent), its status (in_progress, succeeded,
    # failed) and, when it failed, the processor's code and message.
    action_type = models.CharField(max_length=40, blank=True)
    action_status = models.CharField(max_length=20, blank=True)
    action_intent_id = models.CharField(max_length=64, blank=True)
    failure_code = models.CharField(max_length=60, blank=True)
    failure_message = models.CharField(max_length=300, blank=True)
    reported_at = models.DateTimeField(null=True, blank=True, help_text="When the processor last reported it.")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.label} ({self.reader_id})"


class ReaderRefusalReason(models.TextChoices):
    OFFLINE = "offline", _("Offline")  # READER_OFFLINE: off, unplugged, or not answering
    BUSY = "busy", _("Busy")  # READER_BUSY: holding another payment


class ReaderRefusal(models.Model):
    """The kiosk's card reader refused the agent's last send to payment of this session (offline,
    or busy with another payment): nothing else of that send was recorded, the session is still
    active and the agent sends again. Kept so the kiosk can say it (its status body's
    `reader_refusal`, the ReaderRefused message) even after a reload; deleted when a send goes
    through or the session moves on (payment, a transfer, the end)."""

    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="+")
    session = models.OneToOneField("agent_sessions.Session", on_delete=models.CASCADE, related_name="reader_refusal")
    reader = models.ForeignKey("billing.CardReader", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=10, choices=ReaderRefusalReason.choices)
    refused_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.reason} ({self.session_id})"
