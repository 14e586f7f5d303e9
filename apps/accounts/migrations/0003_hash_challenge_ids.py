"""2FA challenge ids at rest: only their SHA-256 is kept (issue 24). Existing challenges (they
live five minutes) keep working: their ids are hashed in place. Reversed, the hashes stay and any
pending challenge is simply refused (the user signs in again)."""

import hashlib

from django.db import migrations, models


def _hash_ids(apps, schema_editor):
    LoginChallenge = apps.get_model("accounts", "LoginChallenge")
    for challenge in LoginChallenge.objects.only("pk", "id_hash").iterator():
        challenge.id_hash = hashlib.sha256(challenge.id_hash.encode()).hexdigest()
        challenge.save(update_fields=["id_hash"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_business_order_sequence")]

    operations = [
        migrations.RenameField(model_name="loginchallenge", old_name="public_id", new_name="id_hash"),
        migrations.RunPython(_hash_ids, migrations.RunPython.noop),
    ]
