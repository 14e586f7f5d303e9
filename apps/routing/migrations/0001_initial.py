import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("accounts", "0009_business_address"),
        ("agent_sessions", "0008_offers_and_routing_settings_to_routing"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # State only: the tables are the ones apps.sessions created (their db_table and index names
    # are kept in the models), so an existing database is not touched.
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RoutingSettings",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        ("offer_size", models.PositiveSmallIntegerField()),
                        ("offer_seconds", models.PositiveSmallIntegerField()),
                        ("any_language_after_seconds", models.PositiveIntegerField()),
                        ("misses_before_break", models.PositiveSmallIntegerField()),
                        ("self_service_after_seconds", models.PositiveIntegerField()),
                        ("agents_start_on_break", models.BooleanField(default=False)),
                        (
                            "owner",
                            models.OneToOneField(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="routing_settings",
                                to="accounts.owner",
                            ),
                        ),
                    ],
                    options={
                        "db_table": "agent_sessions_routingsettings",
                    },
                ),
                migrations.CreateModel(
                    name="Offer",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                            ),
                        ),
                        (
                            "status",
                            models.CharField(
                                choices=[
                                    ("live", "Live"),
                                    ("accepted", "Accepted"),
                                    ("missed", "Missed"),
                                    ("withdrawn", "Withdrawn"),
                                ],
                                default="live",
                                max_length=10,
                            ),
                        ),
                        ("any_language", models.BooleanField(default=False)),
                        ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("expires_at", models.DateTimeField()),
                        ("closed_at", models.DateTimeField(blank=True, null=True)),
                        (
                            "agent",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="offers",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                        (
                            "session",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="offers",
                                to="agent_sessions.session",
                            ),
                        ),
                        (
                            "transfer_from",
                            models.ForeignKey(
                                blank=True,
                                null=True,
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="transfers_offered",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "agent_sessions_offer",
                        "indexes": [
                            models.Index(fields=["status", "expires_at"], name="agent_sessi_status_a91506_idx"),
                            models.Index(fields=["session", "status"], name="agent_sessi_session_78f7cf_idx"),
                        ],
                        "constraints": [
                            models.UniqueConstraint(
                                condition=models.Q(("status", "live")),
                                fields=("agent",),
                                name="one_live_offer_per_agent",
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
