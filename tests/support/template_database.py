"""One migrated test database per version of the code, shared by every pytest process that runs it.

Django builds each test database by running every migration (10-35 s on a loaded machine), and
`make test` starts three pytest sessions, two of them xdist workers at once. Here the first
process to need it migrates a *template* under a file lock, and every process then copies it: on
PostgreSQL `CREATE DATABASE ... TEMPLATE`, on the embedded default a SQLite file backed up into the
in-memory test database. The template's name carries a digest of the code it was migrated by
(apps/, config/, the Django version), so a change to a model or a migration builds a new one, and
the old one is dropped. The migration tests still run the migrations themselves."""

import contextlib
import fcntl
import hashlib
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import django
from django.conf import settings
from django.db import connections

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES_DIR = Path(tempfile.gettempdir()) / "kiosk-test-templates"
STALE_FILE_SECONDS = 24 * 3600  # another checkout's SQLite template, unused for a day
TEMPLATES: dict[str, str] = {}  # alias -> the template its test database was copied from


def code_digest() -> str:
    digest = hashlib.sha256(django.__version__.encode())
    for path in sorted([*ROOT.glob("apps/**/*.py"), *ROOT.glob("config/**/*.py")]):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@contextlib.contextmanager
def file_lock(name: str) -> Iterator[None]:
    TEMPLATES_DIR.mkdir(exist_ok=True)
    with open(TEMPLATES_DIR / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also when the process dies
        yield


def _migrate_into(connection, test_name: str) -> None:
    """Django's own creation (migrate, post_migrate, cache table) into a database named test_name."""
    original_name, original_test_name = connection.settings_dict["NAME"], connection.settings_dict["TEST"]["NAME"]
    connection.settings_dict["TEST"]["NAME"] = test_name
    try:
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    finally:
        _close(connection)
        connection.settings_dict["TEST"]["NAME"] = original_test_name
        connection.settings_dict["NAME"] = original_name
        settings.DATABASES[connection.alias]["NAME"] = original_name


def _close(connection) -> None:
    """Every session of the connection ends: a database with one cannot be renamed or copied."""
    connection.close()
    if hasattr(connection, "close_pool"):  # psycopg's pool keeps its connections open
        connection.close_pool()


def _use(connection, test_name: str) -> None:
    """Point the connection (and settings, as Django's create_test_db does) at the test database."""
    _close(connection)
    settings.DATABASES[connection.alias]["NAME"] = test_name
    connection.settings_dict["NAME"] = test_name


def _postgres_names(connection) -> list[str]:
    with connection._nodb_cursor() as cursor:
        cursor.execute("SELECT datname FROM pg_database")
        return [row[0] for row in cursor.fetchall()]


def _setup_postgres(connection, test_name: str) -> None:
    prefix = f"test_{settings.DATABASES[connection.alias]['NAME']}_template_"
    template = f"{prefix}{code_digest()}"
    TEMPLATES[connection.alias] = template
    with file_lock(template):
        existing = _postgres_names(connection)
        if template not in existing:
            building = f"{template}_building"  # renamed when whole: a crashed build is never used
            _migrate_into(connection, building)
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'ALTER DATABASE "{building}" RENAME TO "{template}"')
                for stale in existing:
                    if stale.startswith(prefix):
                        cursor.execute(f'DROP DATABASE IF EXISTS "{stale}" WITH (FORCE)')
        # Copies are made one at a time: a template must have no session while it is copied.
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{test_name}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{test_name}" TEMPLATE "{template}"')
    _use(connection, test_name)


def _setup_sqlite(connection, test_name: str) -> None:
    template = TEMPLATES_DIR / f"sqlite-{code_digest()}.sqlite3"
    TEMPLATES[connection.alias] = str(template)
    with file_lock(template.stem):
        if not template.exists():
            building = template.with_suffix(".building")
            building.unlink(missing_ok=True)
            _migrate_into(connection, str(building))
            building.replace(template)
            for stale in TEMPLATES_DIR.glob("sqlite-*.sqlite3"):
                if time.time() - stale.stat().st_mtime > STALE_FILE_SECONDS:
                    stale.unlink(missing_ok=True)
    template.touch()  # in use: not stale
    _use(connection, test_name)
    connection.ensure_connection()
    with contextlib.closing(sqlite3.connect(template)) as source:
        source.backup(connection.connection)


def setup_test_database(alias: str = "default") -> str:
    """The alias's test database, a copy of the template; returns the name to pass to teardown."""
    connection = connections[alias]
    old_name = connection.settings_dict["NAME"]
    test_name = connection.creation._get_test_db_name()
    if connection.vendor == "postgresql":
        _setup_postgres(connection, test_name)
    elif connection.vendor == "sqlite" and connection.creation.is_in_memory_db(test_name):
        _setup_sqlite(connection, test_name)
    else:
        raise NotImplementedError(f"no template copy for {connection.vendor} database {test_name}")
    return old_name


def teardown_test_database(old_name: str, alias: str = "default") -> None:
    connections[alias].creation.destroy_test_db(old_name, verbosity=0)


@contextlib.contextmanager
def scratch_copy(alias: str = "default") -> Iterator[None]:
    """The connection on a fresh copy of the template for the block, then back on the test
    database. For tests that migrate backwards and forwards: one stopped half-way (a timeout under
    load) leaves only its scratch copy at an old schema, never the worker's database, which every
    later test of the worker reads."""
    connection = connections[alias]
    own_name = connection.settings_dict["NAME"]
    if connection.vendor == "postgresql":
        scratch = f"{own_name}_scratch"
        with file_lock(TEMPLATES[alias]), connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
            cursor.execute(f'CREATE DATABASE "{scratch}" TEMPLATE "{TEMPLATES[alias]}"')
        _use(connection, scratch)
        try:
            yield
        finally:
            _use(connection, own_name)
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        return
    # SQLite in memory: Django never closes such a connection (that would drop the database), so
    # the worker's is set aside, and the scratch database goes with its own connection.
    held, connection.connection = connection.connection, None
    _use(connection, f"file:scratch_{alias}?mode=memory&cache=shared")
    try:
        connection.ensure_connection()
        with contextlib.closing(sqlite3.connect(TEMPLATES[alias])) as source:
            source.backup(connection.connection)
        yield
    finally:
        if connection.connection is not None:
            connection.connection.close()
        connection.connection = held
        settings.DATABASES[alias]["NAME"] = connection.settings_dict["NAME"] = own_name
