"""Outbound webhooks: subscriptions, one delivery per (event, subscription) written in the
transaction of the change (the outbox), and a log of every attempt."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from apps.core import secret_box


class WebhookSubscription(models.Model):
    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="webhook_subscriptions")
    url = models.URLField(max_length=2000)
    events = models.JSONField(help_text="Event names this receiver wants.")
    # Kept (not hashed) because every delivery is signed with it, but only as a Fernet token
    # under WEBHOOK_SECRET_KEYS (apps.core.secret_box); never shown after creation.
    encrypted_secret = models.TextField()
    active = models.BooleanField(default=True)
    failure_count = models.PositiveIntegerField(default=0, help_text="Consecutive failed attempts.")
    last_delivered_at = models.DateTimeField(null=True, blank=True)
    last_failed_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["owner", "active"])]

    def __str__(self) -> str:
        return f"{self.url} ({self.owner_id})"

    def signing_secret(self) -> str:
        """The plain secret deliveries are signed with (raises secret_box.SecretUnreadable)."""
        return secret_box.decrypt(self.encrypted_secret)


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", _("Pending")  # to be sent, or waiting for its next retry
    SUCCEEDED = "succeeded", _("Succeeded")
    FAILED = "failed", _("Failed")  # retries exhausted
    SKIPPED = "skipped", _("Skipped")  # the subscription was paused


class WebhookDelivery(models.Model):
    """One event to one subscription. Its id is X-Service-Delivery on every retry, so
    receivers can drop duplicates."""

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey("core.DomainEvent", on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    lease_until = models.DateTimeField(null=True, blank=True, help_text="A worker is sending it until then.")
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"])]
        verbose_name_plural = "webhook deliveries"

    def __str__(self) -> str:
        return f"delivery {self.pk} ({self.status})"


class WebhookAttempt(models.Model):
    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    attempted_at = models.DateTimeField(default=timezone.now)
    succeeded = models.BooleanField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField()
    error = models.CharField(max_length=300, blank=True)
    response_excerpt = models.CharField(max_length=1000, blank=True)

    class Meta:
        indexes = [models.Index(fields=["attempted_at"])]

    def __str__(self) -> str:
        return f"attempt {self.pk} of delivery {self.delivery_id}"


class WebhookFailureAllowance(models.Model):
    """How many consecutive failures one batch being sent may add to its subscription's count.

    Taken under the subscription's row lock with the batch's claim and deleted when the batch is
    recorded; one whose worker died stops counting when its lease ends. The count plus every live
    allowance never exceeds PAUSE_AFTER_FAILURES, so however many batches of one subscription run
    at once, the attempt that makes the 10th consecutive failure is the last one before the pause."""

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="allowances")
    failures = models.PositiveSmallIntegerField()
    until = models.DateTimeField(help_text="The batch's lease: after this the allowance no longer counts.")

    def __str__(self) -> str:
        return f"{self.failures} failure(s) for subscription {self.subscription_id} until {self.until}"
