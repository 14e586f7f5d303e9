"""The demo processor's own records: what a real processor would keep on its side (connected
accounts, payment intents, refunds, answers by idempotency key). Nothing here is the service's
state: the service learns of changes through its API answers and signed events, as in production."""

from django.db import models
from django.utils import timezone


class DemoAccount(models.Model):
    account_id = models.CharField(max_length=64, unique=True)
    charges_enabled = models.BooleanField(default=False)
    metadata = models.JSONField(default=dict, blank=True)
    return_url = models.URLField(max_length=500, blank=True, help_text="Where demo onboarding sends the owner back.")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.account_id


class DemoIntentStatus(models.TextChoices):
    REQUIRES_PAYMENT_METHOD = "requires_payment_method"
    SUCCEEDED = "succeeded"
    CANCELED = "canceled"


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
