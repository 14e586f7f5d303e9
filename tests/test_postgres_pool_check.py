"""The pool's check before lending a connection (apps/core/postgresql): a quiet connection is
lent without a round trip; one the server has dropped is never lent."""

import time

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from apps.core.postgresql.base import check_quiet_connection

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
        conninfo, min_size=1, max_size=1, check=check_quiet_connection, kwargs={"autocommit": True}
    ) as p:
        yield p


def last_query(admin, pid: int) -> str:
    return admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", (pid,)).fetchone()[0]


def test_a_quiet_connection_is_lent_without_a_round_trip(pool, admin):
    with pool.connection() as conn:
        conn.execute("SELECT 'marker-before-return'")
        pid = conn.info.backend_pid
    with pool.connection() as conn:
        assert conn.info.backend_pid == pid  # the same connection, lent again
        # psycopg_pool's own check would have sent an empty query, replacing the last one
        assert last_query(admin, pid) == "SELECT 'marker-before-return'"


def test_a_connection_the_server_dropped_is_not_lent(pool, admin):
    with pool.connection() as conn:
        pid = conn.info.backend_pid
    admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
    time.sleep(0.3)  # the FATAL message reaches the idle connection's socket
    with pool.connection() as conn:
        assert conn.info.backend_pid != pid
        assert conn.execute("SELECT 1").fetchone() == (1,)


def test_a_closed_connection_fails_the_check(conninfo):
    conn = psycopg.connect(conninfo, autocommit=True)
    conn.close()
    with pytest.raises(psycopg.OperationalError):
        check_quiet_connection(conn)


def test_django_lends_through_the_quiet_check():
    assert connection.settings_dict["ENGINE"] == "apps.core.postgresql"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    assert connection.pool._check is check_quiet_connection
