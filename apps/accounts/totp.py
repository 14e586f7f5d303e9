"""The authenticator-app second factor: a django-otp device whose seed is stored encrypted.

django-otp's own SealedTotpDevice keeps its seed as plain hex, so anyone reading the database (or a
backup) could compute every user's codes. This device is written the way django-otp
documents custom devices (a `Device` subclass implementing `verify_token`, with its
`ThrottlingMixin` and `TimestampMixin`, and `django_otp.oath.TOTP` for the arithmetic); the seed
is a Fernet token under WEBHOOK_SECRET_KEYS (apps.core.secret_box), read only to verify a code or
show the enrolment QR code. `devices_for_user` and the OTP middleware find it like any device.
"""

import secrets
import time
from base64 import b32encode
from urllib.parse import quote, urlencode

from django.conf import settings
from django.db import models
from django_otp.models import Device, ThrottlingMixin, TimestampMixin
from django_otp.oath import TOTP

from apps.core import secret_box

SEED_BYTES = 20  # as django-otp's default


def new_sealed_seed() -> str:
    return secret_box.encrypt(secrets.token_hex(SEED_BYTES))


class SealedTotpDevice(TimestampMixin, ThrottlingMixin, Device):
    encrypted_key = models.TextField(default=new_sealed_seed, help_text="The hex seed, encrypted.")
    step = models.PositiveSmallIntegerField(default=30)
    t0 = models.BigIntegerField(default=0)
    digits = models.PositiveSmallIntegerField(default=6)
    tolerance = models.PositiveSmallIntegerField(default=1)
    drift = models.SmallIntegerField(default=0)
    last_t = models.BigIntegerField(default=-1, help_text="The time step of the last code accepted (no replay).")

    class Meta:
        app_label = "accounts"
        verbose_name = "TOTP device (sealed seed)"

    @property
    def key(self) -> str:
        """The seed as hex (decrypted on each read, never kept)."""
        return secret_box.decrypt(self.encrypted_key)

    @key.setter
    def key(self, hex_seed: str) -> None:
        self.encrypted_key = secret_box.encrypt(hex_seed)

    @property
    def bin_key(self) -> bytes:
        return bytes.fromhex(self.key)

    def get_throttle_factor(self) -> int:
        return getattr(settings, "OTP_TOTP_THROTTLE_FACTOR", 1)

    def verify_token(self, token: str) -> bool:
        allowed, _ = self.verify_is_allowed()
        if not allowed:
            return False
        try:
            code = int(token)
        except (TypeError, ValueError):
            verified = False
        else:
            totp = TOTP(self.bin_key, self.step, self.t0, self.digits, self.drift)
            totp.time = time.time()
            verified = totp.verify(code, self.tolerance, self.last_t + 1)
            if verified:
                self.last_t, self.drift = totp.t(), totp.drift
                self.throttle_reset(commit=False)
                self.set_last_used_timestamp(commit=False)
                self.save()
        if not verified:
            self.throttle_increment(commit=True)
        return verified

    @property
    def config_url(self) -> str:
        """The otpauth:// URL an authenticator app scans."""
        label = str(self.user.get_username())
        params = {"secret": b32encode(self.bin_key), "algorithm": "SHA1", "digits": self.digits, "period": self.step}
        query = urlencode(params)
        issuer = (getattr(settings, "OTP_TOTP_ISSUER", "") or "").replace(":", "")
        if issuer:
            label = f"{issuer}:{label}"
            query += f"&issuer={quote(issuer)}"
        return f"otpauth://totp/{quote(label)}?{query}"
