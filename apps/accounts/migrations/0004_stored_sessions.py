"""Sessions stored under the SHA-256 of their cookie (apps/accounts/session_store.py): a table of
their own, with every live session of django_session moved over (hashed keys, the same data), so
no one is signed out. The reverse cannot recover cookie values: it signs everyone out."""

import hashlib

from django.db import migrations, models
from django.utils import timezone


def _move_sessions(apps, schema_editor):
    Session = apps.get_model("sessions", "Session")
    StoredSession = apps.get_model("accounts", "StoredSession")
    live = Session.objects.filter(expire_date__gt=timezone.now())
    batch = []
    for session in live.iterator():
        key = hashlib.sha256(session.session_key.encode()).hexdigest()
        batch.append(StoredSession(session_key=key, session_data=session.session_data, expire_date=session.expire_date))
    StoredSession.objects.bulk_create(batch, batch_size=500, ignore_conflicts=True)
    Session.objects.all().delete()  # no cookie values left behind


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0003_hash_challenge_ids"),
        ("sessions", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="StoredSession",
            fields=[
                ("session_data", models.TextField(verbose_name="session data")),
                ("expire_date", models.DateTimeField(db_index=True, verbose_name="expire date")),
                (
                    "session_key",
                    models.CharField(
                        help_text="SHA-256 of the cookie's value.", max_length=64, primary_key=True, serialize=False
                    ),
                ),
            ],
            options={"verbose_name": "session", "verbose_name_plural": "sessions", "abstract": False},
        ),
        migrations.RunPython(_move_sessions, migrations.RunPython.noop),
    ]
