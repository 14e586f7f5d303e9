from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("agent_sessions", "0007_routing_agents_start_on_break"),
    ]

    # Offer and RoutingSettings are apps.routing's models now: only the migration state moves; the
    # tables (agent_sessions_offer, agent_sessions_routingsettings) stay as they are, and
    # routing's 0001_initial takes them over by name (docs/decisions/structure.md "Routing is its own app").
    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(model_name="routingsettings", name="owner"),
                migrations.DeleteModel(name="Offer"),
                migrations.DeleteModel(name="RoutingSettings"),
            ],
            database_operations=[],
        ),
    ]
