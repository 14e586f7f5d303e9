"""One live server per test worker, shared by the live and browser tests that need no settings of
their own (the `serve()` of tests/kiosk_app and tests/agent_dashboard without arguments).

The server and the tests share one database, the worker's *live database*: made once per worker
from the migrated test database (on the embedded default a SQLite file, a copy of the in-memory
test database; on PostgreSQL a `CREATE DATABASE ... TEMPLATE` of it), never flushed. A test using
`live_db` points the ORM's default connection at it for its duration, so every row the test makes
is committed there and the server sees it at once, and rows made after `serve()` too. Tests cannot
see each other: each makes its own owner (a fresh tenant; all data is owner-scoped), and ids only
grow. A test that needs special settings or a fault still gets a server of its own
(processes.database_url_for_child: on the embedded default a copy of the live database made then,
on PostgreSQL the live database itself)."""

import contextlib
import json
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import stripe
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.db import connection, connections
from django.db.models.sql import UpdateQuery

from tests import factories
from tests.support.payments import CONNECT_SECRET, PLATFORM_SECRET, recorded_event
from tests.support.processes import CHILD_PREFIX, LiveServer, database_url_for_child, start_daphne, stop_daphne


class OnceHashedPBKDF2PasswordHasher(PBKDF2PasswordHasher):
    """Real PBKDF2 hashes, which the servers check with their own hashers (the suite's MD5
    shortcut is not among them), each password hashed once per process: one fixed salt, the
    result kept (a hash costs 0.4 s on a loaded machine, and a live test makes several users)."""

    def salt(self) -> str:
        return "suiteFixedSaltOfLiveTests"  # 25 characters: enough entropy that no sign-in rehashes it

    def encode(self, password, salt, iterations=None):
        key = (password, salt, iterations)
        if key not in _hashed:  # the hasher is made anew whenever a test changes settings
            _hashed[key] = super().encode(password, salt, iterations)
        return _hashed[key]


_hashed: dict = {}


SERVER_CHECKED_HASHERS = [f"{__name__}.OnceHashedPBKDF2PasswordHasher"]


@dataclass
class LiveDatabase:
    settings_dict: dict  # the test process's connection to it
    url: str | None  # the server's DATABASE_URL on PostgreSQL; None on the embedded default
    workdir: Path  # the shared server's VAR_DIR is workdir/var (its db.sqlite3 on the embedded default)


def _postgres_url(db: dict) -> str:
    from urllib.parse import quote

    credentials = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
    return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def _without_pool(db: dict) -> dict:
    # Django keeps its psycopg pools per alias: the live database's connection must not borrow
    # the test database's pool (also "default").
    return {**db, "OPTIONS": {key: value for key, value in db["OPTIONS"].items() if key != "pool"}}


def _create_postgres_copy(name: str) -> None:
    source = connection.settings_dict["NAME"]
    # CREATE DATABASE ... TEMPLATE needs the template without sessions: the test process's own.
    connection.close()
    if hasattr(connection, "close_pool"):
        connection.close_pool()
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cursor.execute(f'CREATE DATABASE "{name}" TEMPLATE "{source}"')


def _drop_postgres_copy(name: str) -> None:
    with connection._nodb_cursor() as cursor:
        cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def live_database(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[LiveDatabase]:
    workdir = tmp_path_factory.mktemp("live")
    (workdir / "var").mkdir()
    with django_db_blocker.unblock():
        if connection.vendor == "postgresql":
            name = f"{connection.settings_dict['NAME']}_live"
            _create_postgres_copy(name)
            db = _without_pool({**connection.settings_dict, "NAME": name})
            yield LiveDatabase(db, _postgres_url(db), workdir)
            _drop_postgres_copy(name)
            return
        path = workdir / "var" / "db.sqlite3"
        connection.ensure_connection()
        with contextlib.closing(sqlite3.connect(path)) as target:
            connection.connection.backup(target)
            target.execute("PRAGMA journal_mode=WAL")  # the server reads while the test writes
        yield LiveDatabase({**connection.settings_dict, "NAME": str(path)}, None, workdir)


@pytest.fixture
def live_db(transactional_db, live_database) -> Iterator[LiveDatabase]:
    """The ORM's default connection on the worker's live database for this test (its rows are
    committed there and stay; make a fresh owner). Restored after, before transactional_db's
    flush of the test database."""
    original = connections["default"]
    live = original.__class__(live_database.settings_dict, alias="default")
    connections["default"] = live
    try:
        yield live_database
    finally:
        live.close()
        connections["default"] = original


@pytest.fixture(scope="session")
def shared_live_server(live_database) -> Iterator[LiveServer]:
    """daphne on the live database, with the default test settings, for the worker's lifetime. Its
    Redis keys have a prefix of their own: a per-test server's stop clears only its own. Its
    drain at the end is no test's subject: a short grace, not the keep-alive sockets' 10 s."""
    server = start_daphne(
        live_database.workdir,
        database_url=live_database.url,
        CACHE_KEY_PREFIX=f"{CHILD_PREFIX}-shared",
        SHUTDOWN_GRACE_SECONDS="1",
    )
    yield server
    stop_daphne(server)


@pytest.fixture(scope="session")
def shared_second_server(live_database, shared_live_server) -> Iterator[LiveServer]:
    """A second web process beside the shared server, for the tests of several processes on one
    Redis with the default settings: the same live database and the same Redis key prefix, so the
    two share the fan-out, the presence lists and the cache channels. Started by the first such
    test of the worker. Only with Redis: on the embedded default processes share nothing."""
    from django.conf import settings

    if not settings.REDIS_URL:
        pytest.skip("several web processes share state through Redis")
    server = start_daphne(
        live_database.workdir / "second",
        database_url=live_database.url,
        CACHE_KEY_PREFIX=shared_live_server.cache_prefix,
        SHUTDOWN_GRACE_SECONDS="1",
    )
    yield server
    stop_daphne(server)


@dataclass
class Server:
    """A live server as the kiosk app's and the agent dashboard's tests talk to it: over HTTP only."""

    url: str
    processor: object | None = None  # the processor stand-in it pays through, if any
    database_file: Path | None = None  # the embedded default's copy an own server reads, else None

    def agent(self, email: str) -> requests.Session:
        """The agent API as a signed-in agent (Sanctum's SPA flow), status available."""
        http = requests.Session()
        http.get(f"{self.url}/api/csrf-cookie", timeout=10)
        http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]
        answer = http.post(f"{self.url}/api/login", json={"email": email, "password": factories.PASSWORD}, timeout=30)
        assert answer.status_code == 200, answer.text
        http.headers["X-XSRF-TOKEN"] = http.cookies["XSRF-TOKEN"]  # sign-in rotates it
        assert http.post(f"{self.url}/api/agent/status", json={"status": "available"}, timeout=10).status_code == 200
        return http

    def update_rows(self, queryset, **values) -> int:
        """`queryset.update(**values)` where the server reads it, between browser steps: the live
        database (the test's own connection), or an own server's SQLite copy, where the same
        UPDATE statement runs."""
        if self.database_file is None:
            return queryset.update(**values)
        query = queryset.query.chain(UpdateQuery)
        query.add_update_values(values)
        statement, params = query.get_compiler(queryset.db).as_sql()
        with contextlib.closing(sqlite3.connect(self.database_file)) as database, database:
            return database.execute(statement.replace("%s", "?"), params).rowcount

    def kiosk_call(self, kiosk, method: str, path: str, body: dict | None = None) -> requests.Response:
        headers = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
        return requests.request(method, f"{self.url}/api/public{path}", json=body, headers=headers, timeout=10)

    def start_session(self, kiosk) -> str:
        started = self.kiosk_call(
            kiosk, "POST", "/sessions/start", {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
        )
        assert started.status_code == 201, started.text
        return started.json()["session_id"]

    def processor_event(self, event_type: str, intent_id: str) -> None:
        """The recorded payment_intent.* event for the intent (a decline's message: "Your card
        was declined."), signed and posted to the server's connect webhook. By id only: the
        payment row is the server's. The processor sends an event once the card was charged or
        declined, and the server checks it against the processor's own intent: so the stand-in's
        intent succeeds or is declined first, and the event carries its amount and currency."""
        fields = {"id": intent_id}
        if self.processor is not None:
            outcomes = {
                "payment_intent.succeeded": self.processor.succeed,
                "payment_intent.payment_failed": self.processor.decline,
            }
            intent = outcomes[event_type](intent_id)
            fields.update(amount=intent["amount"], currency=intent["currency"])
        payload = json.dumps(recorded_event(event_type, fields))
        signature = stripe.WebhookSignature.generate_signature_header(payload, CONNECT_SECRET)
        answer = requests.post(
            f"{self.url}/processor/connect/webhook",
            data=payload,
            headers={"Stripe-Signature": signature, "Content-Type": "application/json"},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text


@contextlib.contextmanager
def serving(request, prefix: str, *, processor=None) -> Iterator:
    """Yields serve(**env) -> Server, for a test's `serve` fixture: with no `env` (and no
    `processor`), the worker's shared server; else a daphne of the test's own started on the
    rows made so far (paying through `processor`, the stand-in, if given), stopped at the end."""
    started: list[LiveServer] = []
    own: list[LiveServer] = []
    request.node.live_servers = started  # their logs go into a failure's report
    workdir = Path(tempfile.mkdtemp(prefix=prefix))

    def serve(**env: str) -> Server:
        if processor is not None:
            env.update(
                PROCESSOR_SECRET_KEY="sk_test_standin",
                PROCESSOR_API_BASE=processor.url,
                PROCESSOR_WEBHOOK_SECRET=PLATFORM_SECRET,
                PROCESSOR_CONNECT_WEBHOOK_SECRET=CONNECT_SECRET,
            )
        if not env:
            server = request.getfixturevalue("shared_live_server")
            started.append(server)
            return Server(url=server.base_url)
        database_url = database_url_for_child(workdir)
        server = start_daphne(workdir, database_url=database_url, **env)
        started.append(server)
        own.append(server)
        database_file = workdir / "var" / "db.sqlite3" if database_url is None else None
        return Server(url=server.base_url, processor=processor, database_file=database_file)

    try:
        yield serve
    finally:
        for server in own:
            stop_daphne(server)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def serve(world, request) -> Iterator:
    """serve(**env) -> a Server for the browser tests: the worker's shared daphne, or with `env`
    (or when the test uses the `processor` stand-in) one of the test's own, started on the rows
    made so far. `world` is the folder's own rows (tests/kiosk_app, tests/agent_dashboard), made
    first so the server sees them."""
    processor = request.getfixturevalue("processor") if "processor" in request.fixturenames else None
    with serving(request, f"{request.node.path.parent.name}-", processor=processor) as serve_:
        yield serve_
