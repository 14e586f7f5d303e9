"""A transactional test's teardown empties the test database: Django's flush, a TRUNCATE of every
table, then the content types and permissions made again by post_migrate (seconds per test on a
loaded machine). A test that left no row there needs none of it: a live or browser test writes to
the worker's live database (tests/support/live.py), and many transactional tests only talk to
Redis or a server. Such a test's teardown checks the tables first and flushes only when a row is
there; what the flush makes again (content types, permissions) is no sign of a written row."""

from django.db import connections
from django.test import TransactionTestCase

REMADE_BY_THE_FLUSH = {"django_content_type", "auth_permission"}


def holds_rows(alias: str) -> bool:
    """Whether any table the flush would empty has a row, in one query."""
    connection = connections[alias]
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    quote = connection.ops.quote_name
    probes = [
        f"SELECT 1 FROM (SELECT 1 FROM {quote(table)} LIMIT 1) AS probe{number}"  # noqa: S608 - table names
        for number, table in enumerate(sorted(set(tables) - REMADE_BY_THE_FLUSH))
    ]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT EXISTS ({' UNION ALL '.join(probes)})")
        return bool(cursor.fetchone()[0])


def flush_only_written_databases() -> None:
    flush = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self) -> None:
        # available_apps and serialized_rollback change what the flush does and what the next
        # test's set-up expects: those tests keep Django's own teardown.
        if (
            self.available_apps is None
            and not self.serialized_rollback
            and not any(holds_rows(alias) for alias in self._databases_names(include_mirrors=False))
        ):
            return
        flush(self)

    TransactionTestCase._fixture_teardown = _fixture_teardown
