"""A transactional test's teardown empties the test database: Django's flush, a TRUNCATE of every
table, then the content types and permissions made again by post_migrate (seconds per test on a
loaded machine; two thirds of the schema fuzz's time). Most such tests write to a few tables or
none: a live or browser test writes to the worker's live database (tests/support/live.py), and
many transactional tests only talk to Redis or a server. So the teardown first asks which tables
hold a row, in one query, and deletes the rows of those only, in one transaction (Django makes
foreign keys deferred, so the order does not matter). The content types and permissions are left
as the template made them; a test that changed their number gets Django's whole flush."""

from django.db import connections, transaction
from django.test import TransactionTestCase

REMADE_BY_THE_FLUSH = ("django_content_type", "auth_permission")


# Per alias and database: the tables to probe and the probing query. Read from the catalogue once
# (a query and a walk over every model, per transactional test before): the tables of a worker's
# database never change during a run, migration tests migrate a scratch copy (scratch_copy).
_probes: dict[tuple[str, str], tuple[list[str], str]] = {}


def _probe_of(alias: str) -> tuple[list[str], str]:
    connection = connections[alias]
    key = (alias, connection.settings_dict["NAME"])
    if key not in _probes:
        quote = connection.ops.quote_name
        names = connection.introspection.django_table_names(only_existing=True, include_views=False)
        tables = [table for table in sorted(names) if table not in REMADE_BY_THE_FLUSH]
        probes = [
            f"SELECT {number} FROM (SELECT 1 FROM {quote(table)} LIMIT 1) AS probe{number}"  # noqa: S608 - table names
            for number, table in enumerate(tables)
        ]
        _probes[key] = (tables, " UNION ALL ".join(probes))
    return _probes[key]


def written_tables(alias: str) -> list[str]:
    """The tables that hold a row, the flush's own aside, in one query."""
    tables, probe = _probe_of(alias)
    with connections[alias].cursor() as cursor:
        cursor.execute(probe)
        return [tables[row[0]] for row in cursor.fetchall()]


def flush_counts(alias: str) -> tuple[int, ...]:
    """How many content types and permissions there are: what the flush would make again."""
    quote = connections[alias].ops.quote_name
    with connections[alias].cursor() as cursor:
        cursor.execute(" UNION ALL ".join(f"SELECT COUNT(*) FROM {quote(t)}" for t in REMADE_BY_THE_FLUSH))  # noqa: S608
        return tuple(row[0] for row in cursor.fetchall())


_template_counts: dict[str, tuple[int, ...]] = {}  # per alias, as the test database was made


def remember_flush_counts(alias: str = "default") -> None:
    _template_counts[alias] = flush_counts(alias)


def delete_written_rows(alias: str) -> bool:
    """Empties the tables holding rows; False when only Django's flush will do."""
    if flush_counts(alias) != _template_counts.get(alias):
        return False
    tables = written_tables(alias)
    if tables:
        connection = connections[alias]
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            for table in tables:
                cursor.execute(f"DELETE FROM {connection.ops.quote_name(table)}")  # noqa: S608 - table names
    return True


def flush_only_written_tables() -> None:
    flush = TransactionTestCase._fixture_teardown

    def _fixture_teardown(self) -> None:
        # available_apps and serialized_rollback change what the flush does and what the next
        # test's set-up expects: those tests keep Django's own teardown.
        if self.available_apps is None and not self.serialized_rollback:
            aliases = self._databases_names(include_mirrors=False)
            if all([delete_written_rows(alias) for alias in aliases]):
                return
        flush(self)

    TransactionTestCase._fixture_teardown = _fixture_teardown
