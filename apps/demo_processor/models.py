"""The demo processor's own records: what a real processor would keep on its side (connected
accounts, payment intents, refunds, answers by idempotency key). Nothing here is the service's
state: the service learns of changes through its API answers and signed events, as in production."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class DemoAccount(models.Model):
    account_id = models.CharField(max_length=64, unique=True)
    charges_enabled = models.BooleanField(default=False)
    metadata = models.JSONField(default=dict, blank=True)
    return_url = models.URLField(max_length=500, blank=True, help_text="Where demo onboarding sends the owner back.")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.account_id


class DemoIntentStatus(models.TextChoices):
    REQUIRES_PAYMENT_METHOD = "requires_payment_method", _("Requires Payment Method")
    SUCCEEDED = "succeeded", _("Succeeded")
    CANCELED = "canceled", _("Canceled")


class DemoPaymentIntent(models.Model):
    intent_id = models.CharField(max_length=64, unique=True)
    account_id = models.CharField(max_length=64, db_index=True)
    client_secret = models.CharField(max_length=200)
    amount = models.PositiveIntegerField()
    currency = models.CharField(max_length=3)
    description = models.CharField(max_length=500, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=30, choices=DemoIntentStatus.choices)
    last_error = models.JSONField(
        null=True, blank=True, help_text="The last declined attempt, as the processor says it."
    )
    # The card that paid (a real processor keeps it on the intent's charge): brand and last four.
    card_brand = models.CharField(max_length=20, blank=True)
    card_last4 = models.CharField(max_length=4, blank=True)
    # "card" (typed or in the browser's card fields) or "card_present" (paid on a reader only).
    payment_method_types = models.JSONField(default=list, blank=True)
    # How a reader read the card that paid (contactless_emv, contact_emv, magnetic_stripe_track2).
    card_read_method = models.CharField(max_length=30, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.intent_id


class DemoRefund(models.Model):
    refund_id = models.CharField(max_length=64, unique=True)
    intent = models.ForeignKey(DemoPaymentIntent, on_delete=models.CASCADE, related_name="refunds")
    amount = models.PositiveIntegerField()
    reason = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.refund_id


class DemoIdempotentAnswer(models.Model):
    """The first answer to an Idempotency-Key, replayed to every retry of it (keys are scoped by
    connected account, as the processor scopes them)."""

    account_id = models.CharField(max_length=64, blank=True)
    key = models.CharField(max_length=255)
    path = models.CharField(max_length=200)
    status = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["account_id", "key"], name="demo_idempotency_key_unique")]

    def __str__(self) -> str:
        return self.key


class DemoLocation(models.Model):
    """A Terminal location: where readers stand, on one connected account."""

    location_id = models.CharField(max_length=64, unique=True)
    account_id = models.CharField(max_length=64, db_index=True)
    display_name = models.CharField(max_length=1000)
    address = models.JSONField(default=dict, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.location_id


class DemoReader(models.Model):
    """A simulated Terminal reader (registered with a simulated registration code). `action` is
    the reader's most recent action as the processor answers it (type, status, failure_code,
    failure_message, process_payment_intent), or None."""

    reader_id = models.CharField(max_length=64, unique=True)
    account_id = models.CharField(max_length=64, db_index=True)
    location = models.ForeignKey(DemoLocation, on_delete=models.CASCADE, related_name="readers")
    label = models.CharField(max_length=100)
    device_type = models.CharField(max_length=40)
    serial_number = models.CharField(max_length=40)
    status = models.CharField(max_length=10, default="online", help_text="online or offline")
    action = models.JSONField(null=True, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.reader_id
