"""Kiosk tablets, their device credentials and the pairing codes that issue them."""

import hashlib
import hmac

from django.conf import settings
from django.db import models
from django.utils import timezone

from apps.accounts.models import Business

REACH_MM = 1220  # the highest operable part a wheelchair user reaches (EN 301 549 8.3)


class Kiosk(models.Model):
    """A tablet paired to a business. Its device token is stored only as a SHA-256 hash;
    unpairing clears it, which revokes the token at once."""

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="kiosks")
    name = models.CharField(max_length=200)
    location = models.CharField(max_length=200, blank=True)
    device_id = models.UUIDField(null=True, blank=True)
    token_hash = models.CharField(max_length=64, blank=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    unpaired_at = models.DateTimeField(null=True, blank=True)
    last_seen_at = models.DateTimeField(null=True, blank=True)
    online = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)
    # Where the screen is mounted, for accessible mode's reach line (REACH_MM from the floor): the
    # height of the screen's bottom edge and the screen's visible height, in millimetres.
    mount_height_mm = models.PositiveSmallIntegerField(default=1000)
    screen_height_mm = models.PositiveSmallIntegerField(default=180)

    class Meta:
        constraints = [
            # One live pairing per physical device.
            models.UniqueConstraint(
                fields=["device_id"], condition=models.Q(unpaired_at=None), name="kiosk_device_paired_once"
            )
        ]
        indexes = [models.Index(fields=["online", "last_seen_at"])]

    def __str__(self) -> str:
        return self.name

    @property
    def is_paired(self) -> bool:
        return bool(self.token_hash) and self.unpaired_at is None


class PairingCode(models.Model):
    """A 6-digit code, valid 15 minutes, used once. Kept only as a keyed hash: the code space
    is small, so a plain hash would be reversible by anyone who read the table."""

    business = models.ForeignKey(Business, on_delete=models.CASCADE, related_name="pairing_codes")
    code_hash = models.CharField(max_length=64, db_index=True)
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    kiosk = models.ForeignKey(Kiosk, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    def __str__(self) -> str:
        return f"pairing code for {self.business} (expires {self.expires_at:%Y-%m-%d %H:%M})"


def hash_device_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_pairing_code(code: str) -> str:
    return hmac.new(settings.SECRET_KEY.encode(), f"pairing:{code}".encode(), hashlib.sha256).hexdigest()
