"""The embedded default's tables for a child process on a fresh SQLite file, straight from the
models: every app as one without migrations, created by `migrate --run-syncdb`. Running all the
migrations instead takes half a minute on a loaded machine, and on SQLite they add nothing more
(their RunPython steps convert rows an empty database lacks; the report triggers are
PostgreSQL's). The migrations have their own tests; a PostgreSQL database still migrates."""

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.db import connection


def tables_from_models() -> None:
    assert connection.vendor == "sqlite", "PostgreSQL needs its migrations (the report triggers)"
    settings.MIGRATION_MODULES = {config.label: None for config in apps.get_app_configs()}
    call_command("migrate", run_syncdb=True, verbosity=0)
