"""TOTP seeds at rest (issue 24): the sealed device (apps/accounts/totp.py) takes over every
django-otp TOTPDevice, its seed encrypted with the secret box, and the plain seeds are deleted.
Reversed, the devices go back to django-otp's table with plain seeds."""

import apps.accounts.totp
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


FIELDS = (
    "user_id",
    "name",
    "confirmed",
    "step",
    "t0",
    "digits",
    "tolerance",
    "drift",
    "last_t",
    "throttling_failure_timestamp",
    "throttling_failure_count",
    "created_at",
    "last_used_at",
)


def _seal(apps, schema_editor):
    from apps.core import secret_box

    Plain = apps.get_model("otp_totp", "TOTPDevice")
    Sealed = apps.get_model("accounts", "SealedTotpDevice")
    for device in Plain.objects.all().iterator():
        values = {name: getattr(device, name) for name in FIELDS}
        Sealed.objects.create(encrypted_key=secret_box.encrypt(device.key), **values)
    Plain.objects.all().delete()


def _unseal(apps, schema_editor):
    from apps.core import secret_box

    Plain = apps.get_model("otp_totp", "TOTPDevice")
    Sealed = apps.get_model("accounts", "SealedTotpDevice")
    for device in Sealed.objects.all().iterator():
        values = {name: getattr(device, name) for name in FIELDS}
        Plain.objects.create(key=secret_box.decrypt(device.encrypted_key), **values)
    Sealed.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_stored_sessions"),
        ("otp_totp", "0003_add_timestamps"),
    ]

    operations = [
        migrations.CreateModel(
            name="SealedTotpDevice",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(help_text="The human-readable name of this device.", max_length=64)),
                ("confirmed", models.BooleanField(default=True, help_text="Is this device ready for use?")),
                (
                    "throttling_failure_timestamp",
                    models.DateTimeField(
                        blank=True,
                        default=None,
                        help_text="A timestamp of the last failed verification attempt. Null if last attempt succeeded.",
                        null=True,
                    ),
                ),
                (
                    "throttling_failure_count",
                    models.PositiveIntegerField(default=0, help_text="Number of successive failed attempts."),
                ),
                (
                    "created_at",
                    models.DateTimeField(
                        auto_now_add=True,
                        help_text="The date and time when this device was initially created in the system.",
                        null=True,
                    ),
                ),
                (
                    "last_used_at",
                    models.DateTimeField(
                        blank=True, help_text="The most recent date and time this device was used.", null=True
                    ),
                ),
                (
                    "encrypted_key",
                    models.TextField(default=apps.accounts.totp.new_sealed_seed, help_text="The hex seed, encrypted."),
                ),
                ("step", models.PositiveSmallIntegerField(default=30)),
                ("t0", models.BigIntegerField(default=0)),
                ("digits", models.PositiveSmallIntegerField(default=6)),
                ("tolerance", models.PositiveSmallIntegerField(default=1)),
                ("drift", models.SmallIntegerField(default=0)),
                (
                    "last_t",
                    models.BigIntegerField(
                        default=-1, help_text="The time step of the last code accepted (no replay)."
                    ),
                ),
                (
                    "user",
                    models.ForeignKey(
                        help_text="The user that this device belongs to.",
                        on_delete=django.db.models.deletion.CASCADE,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            options={
                "verbose_name": "TOTP device (sealed seed)",
            },
        ),
        migrations.RunPython(_seal, _unseal),
    ]
