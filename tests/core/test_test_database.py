"""The suite's test database is a copy of a template migrated once per version of the code
(tests/support/template_database.py): a copy of a stale template would test old tables."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.support import template_database


@pytest.mark.django_db
def test_the_test_database_has_every_migration_of_the_code_applied():
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    assert executor.migration_plan(leaves) == []
    assert "template" not in connection.settings_dict["NAME"]  # a copy, never the template itself


def test_the_template_changes_with_the_code(tmp_path, monkeypatch):
    (tmp_path / "apps" / "menu" / "migrations").mkdir(parents=True)
    migration = tmp_path / "apps" / "menu" / "migrations" / "0001_initial.py"
    migration.write_text("operations = []\n")
    monkeypatch.setattr(template_database, "ROOT", tmp_path)
    before = template_database.code_digest()
    migration.write_text("operations = ['changed']\n")
    assert template_database.code_digest() != before


@pytest.mark.django_db(transaction=True)
def test_a_test_stopped_half_way_through_its_migrations_leaves_the_workers_database_whole():
    own_name = connection.settings_dict["NAME"]
    leaves = MigrationExecutor(connection).loader.graph.leaf_nodes()
    with template_database.scratch_copy():
        assert connection.settings_dict["NAME"] != own_name
        MigrationExecutor(connection).migrate([("webhooks", "0001_initial")])  # and never forward again
        assert MigrationExecutor(connection).migration_plan(leaves) != []
    assert connection.settings_dict["NAME"] == own_name
    assert MigrationExecutor(connection).migration_plan(leaves) == []
