from django.db import migrations, models


class Migration(migrations.Migration):
    """The secret column becomes wide enough for a Fernet token and says what it holds; 0003
    then encrypts what is in it."""

    dependencies = [
        ("webhooks", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="webhooksubscription",
            name="secret",
            field=models.TextField(),
        ),
        migrations.RenameField(
            model_name="webhooksubscription",
            old_name="secret",
            new_name="encrypted_secret",
        ),
    ]
