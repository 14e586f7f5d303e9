"""Receipt tokens are kept only as their SHA-256 (apps/orders/receipts.py): existing tokens are
hashed, so the addresses already given (printed as QR codes, mailed) still open their receipts."""

import hashlib

from django.db import migrations, models


def hash_tokens(apps, schema_editor):
    Order = apps.get_model("orders", "Order")
    for order in Order.objects.exclude(receipt_token=None).only("pk", "receipt_token").iterator():
        digest = hashlib.sha256(order.receipt_token.encode()).hexdigest()
        Order.objects.filter(pk=order.pk).update(receipt_token_hash=digest)


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0005_order_settings_keep_receipt_email"),
    ]

    operations = [
        migrations.AddField(
            model_name="order",
            name="receipt_token_hash",
            field=models.CharField(
                blank=True,
                editable=False,
                help_text="SHA-256 of the receipt's token.",
                max_length=64,
                null=True,
                unique=True,
            ),
        ),
        # Backwards the tokens cannot be recovered: the older code then finds no receipt.
        migrations.RunPython(hash_tokens, migrations.RunPython.noop),
        migrations.RemoveField(model_name="order", name="receipt_token"),
    ]
