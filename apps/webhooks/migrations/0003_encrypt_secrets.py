"""Encrypt the plain-text signing secrets with the first key of WEBHOOK_SECRET_KEYS.

Reversible: migrating back to 0002 decrypts them again (with any listed key), and 0002 reversed
narrows the column back to 64 characters. Run with the keys the server will use: a secret
encrypted under a key the server lacks cannot sign (its deliveries wait, logged, until the key
is listed)."""

from django.db import migrations

from apps.core import secret_box

CHUNK = 500


def _rewrite(apps, change) -> None:
    subscriptions = apps.get_model("webhooks", "WebhookSubscription")
    rows = subscriptions.objects.order_by("pk").only("pk", "encrypted_secret")
    for subscription in rows.iterator(chunk_size=CHUNK):
        subscription.encrypted_secret = change(subscription.encrypted_secret)
        subscription.save(update_fields=["encrypted_secret"])


def encrypt_all(apps, schema_editor) -> None:
    _rewrite(apps, secret_box.encrypt)


def decrypt_all(apps, schema_editor) -> None:
    _rewrite(apps, secret_box.decrypt)


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0002_encrypted_secret_column"),
    ]

    operations = [migrations.RunPython(encrypt_all, decrypt_all)]
