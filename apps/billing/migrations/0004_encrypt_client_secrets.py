"""Payments' client secrets at rest: encrypted with the secret box (apps.core.secret_box), the
existing rows included; reversible."""

from django.db import migrations, models

from apps.core import secret_box


def _encrypt(apps, schema_editor):
    Payment = apps.get_model("billing", "Payment")
    for payment in Payment.objects.only("pk", "client_secret").iterator():
        payment.encrypted_client_secret = secret_box.encrypt(payment.client_secret)
        payment.save(update_fields=["encrypted_client_secret"])


def _decrypt(apps, schema_editor):
    Payment = apps.get_model("billing", "Payment")
    for payment in Payment.objects.only("pk", "encrypted_client_secret").iterator():
        payment.client_secret = secret_box.decrypt(payment.encrypted_client_secret)
        payment.save(update_fields=["client_secret"])


class Migration(migrations.Migration):
    dependencies = [("billing", "0003_payment_reconciled")]

    operations = [
        migrations.AddField(
            model_name="payment", name="encrypted_client_secret", field=models.TextField(default=""), preserve_default=False
        ),
        migrations.AlterField(model_name="payment", name="client_secret", field=models.CharField(max_length=200, default="")),
        migrations.RunPython(_encrypt, _decrypt),
        migrations.RemoveField(model_name="payment", name="client_secret"),
    ]
