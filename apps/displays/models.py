"""Display tokens: what a wall screen (the kitchen display, the order board) signs in with.

A token belongs to one business and opens one screen; only the SHA-256 of its secret is kept
(like personal access tokens), the secret is shown once when the owner creates it. Revoking it
stops the screen's next request and its next channel subscription."""

import hashlib

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class DisplayKind(models.TextChoices):
    KITCHEN = "kitchen", _("Kitchen")
    BOARD = "board", _("Board")


def hash_display_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class DisplayToken(models.Model):
    owner = models.ForeignKey("accounts.Owner", on_delete=models.CASCADE, related_name="display_tokens")
    business = models.ForeignKey("accounts.Business", on_delete=models.CASCADE, related_name="display_tokens")
    kind = models.CharField(max_length=10, choices=DisplayKind.choices)
    name = models.CharField(max_length=100)
    token_hash = models.CharField(max_length=64, unique=True)
    # The board drops a ready number this long after it became ready, collected or not (owner-set).
    ready_seconds = models.PositiveIntegerField(
        default=600, validators=[MinValueValidator(30), MaxValueValidator(86400)]
    )
    created_by = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["owner", "revoked_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} display {self.name} ({self.business_id})"
