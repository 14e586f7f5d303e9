from django.db import models
from django.utils import timezone


class DomainEvent(models.Model):
    """Every domain event, written in the transaction of the change that caused it.

    `apps.core.events.emit` writes one for each event with a webhook name; the webhook outbox
    hangs off it, and it is the audit trail a missed delivery can be rebuilt from.
    """

    name = models.CharField(max_length=64)
    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="events")
    payload = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["owner", "name", "created_at"])]

    def __str__(self) -> str:
        return f"{self.name} #{self.pk}"
