"""Django's PostgreSQL backend with a pool that checks a connection without a round trip.

Django's pool, with CONN_HEALTH_CHECKS, runs psycopg_pool's check (an empty query) every time
it lends a connection: one extra round trip per web request, as much as the kiosk poll's own
query. An idle connection hears from the server only when the server drops it (a restart,
pg_terminate_backend, an idle timeout), and then its socket turns readable: a FATAL message or
end of file. So a connection whose socket is quiet is lent as it is, and only one with something
to read gets the full check, which raises for a dead one (the pool then discards it).
"""

import select

from django.db.backends.postgresql import base
from psycopg import OperationalError
from psycopg_pool import ConnectionPool


def check_quiet_connection(conn) -> None:
    """psycopg_pool `check` callback: raise if `conn` must not be lent."""
    if conn.closed or conn.broken:
        raise OperationalError("the connection is closed")
    poller = select.poll()  # not select.select: daphne's WebSockets take file numbers above 1024
    poller.register(conn.fileno(), select.POLLIN)
    if poller.poll(0):
        ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        pool = super().pool
        # Django builds the pool once per alias with psycopg_pool's round-trip check when
        # CONN_HEALTH_CHECKS is on; swap in the quiet-socket check before the pool lends anything.
        if pool is not None and pool._check is ConnectionPool.check_connection:
            pool._check = check_quiet_connection
        return pool
