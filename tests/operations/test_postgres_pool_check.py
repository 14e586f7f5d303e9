"""The pool's check before lending a connection: one the server has dropped is never lent.
Django's pool runs psycopg_pool's documented check (`ConnectionPool.check_connection`, an empty
query) when CONN_HEALTH_CHECKS is on (docs/decisions/operations.md)."""

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from tests.support.private_servers import wait_until

pytestmark = pytest.mark.postgres  # PostgreSQL's connection pool


@pytest.fixture
def conninfo(db):
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.conninfo.make_conninfo(**{k: v for k, v in params.items() if v is not None})


@pytest.fixture
def admin(conninfo):
    with psycopg.connect(conninfo, autocommit=True) as conn:
        yield conn


@pytest.fixture
def pool(conninfo):
    with ConnectionPool(
        conninfo, min_size=1, max_size=1, check=ConnectionPool.check_connection, kwargs={"autocommit": True}
    ) as p:
        yield p


def backends_gone(admin, pids: list[int]) -> bool:
    """None of these server processes is left: each has sent its client the FATAL and exited."""
    return not admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = ANY(%s)", (pids,)).fetchone()


def test_a_connection_the_server_dropped_is_not_lent(pool, admin):
    with pool.connection() as conn:
        pid = conn.info.backend_pid
    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    wait_until(lambda: backends_gone(admin, [pid]), 10, "the terminated backend's exit")  # its FATAL sent
    with pool.connection() as conn:
        assert conn.info.backend_pid != pid
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_a_closed_connection_fails_the_check(conninfo):
    conn = psycopg.connect(conninfo, autocommit=True)
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        ConnectionPool.check_connection(conn)


def test_django_lends_through_the_check(transactional_db, admin):
    assert connection.settings_dict["ENGINE"] == "django.db.backends.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    # Start from a fresh pool: psycopg_pool backs off (1 s, 2 s, ...) after each dead connection
    # it finds, so the idle connections earlier tests' threads left would outlast getconn's 5 s.
    connection.close_pool()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        [pid] = cursor.fetchone()
    connection.close()  # back to Django's pool, as at the end of a request
    # every connection the pool holds (it lends first in, first out), as a server restart would
    terminated = admin.execute(
        "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE datname = current_database() AND pid <> pg_backend_pid()"
    ).fetchall()
    wait_until(lambda: backends_gone(admin, [row[0] for row in terminated]), 10, "the terminated backends' exit")
    with connection.cursor() as cursor:  # the next request borrows: no dropped one is lent
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != pid
