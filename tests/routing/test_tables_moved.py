"""Offer and RoutingSettings moved from apps.sessions to apps.routing without touching the
database: the migrations are state-only, so a database at the earlier migrations keeps its rows
(and the reports' PostgreSQL triggers on the offer table) and reads them through the new models."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from apps.routing.models import Offer, RoutingSettings
from tests import factories

BEFORE = [("agent_sessions", "0007_routing_agents_start_on_break"), ("routing", None)]


def _tables() -> set[str]:
    with connection.cursor() as cursor:
        return set(connection.introspection.table_names(cursor))


@pytest.mark.django_db(transaction=True)
def test_a_database_at_the_earlier_migrations_keeps_its_offers_and_settings_across_the_move(
    scratch_database, kiosk, owner
):
    agent = factories.AgentFactory(owner=owner)
    session = factories.SessionFactory(kiosk=kiosk)
    now = timezone.now()
    offer = Offer.objects.create(session=session, agent=agent, created_at=now, expires_at=now + timedelta(seconds=15))
    RoutingSettings.objects.create(
        owner=owner,
        offer_size=2,
        offer_seconds=20,
        any_language_after_seconds=40,
        misses_before_break=3,
        self_service_after_seconds=90,
        agents_start_on_break=True,
    )
    tables = _tables()
    assert {"agent_sessions_offer", "agent_sessions_routingsettings"} <= tables

    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)  # back to today's main: Offer is agent_sessions' again
    executor.loader.build_graph()
    old = executor.loader.project_state(BEFORE[0]).apps
    assert old.get_model("agent_sessions", "Offer").objects.get().pk == offer.pk
    assert old.get_model("agent_sessions", "RoutingSettings").objects.get().offer_size == 2
    # Nothing was created, and the moved tables stayed; only the tables of later migrations that
    # need a later session migration (a reader's refusal, say) went with them.
    back = _tables()
    assert back <= tables and {"agent_sessions_offer", "agent_sessions_routingsettings"} <= back

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())  # forward again, as an upgrade runs it
    assert _tables() == tables
    moved = Offer.objects.get()
    assert (moved.pk, moved.session_id, moved.agent_id, moved.status) == (offer.pk, session.pk, agent.pk, "live")
    assert RoutingSettings.objects.get(owner=owner).agents_start_on_break is True
    assert not MigrationExecutor(connection).migration_plan(executor.loader.graph.leaf_nodes())
    if connection.vendor == "postgresql":  # the reports' stale-hour triggers still watch the offers
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_trigger WHERE tgname LIKE 'reports_stale_agent_sessions_offer_%'")
            assert cursor.fetchone()[0] == 3
