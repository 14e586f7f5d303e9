"""The suite's parallel workers (pytest-xdist, `make test` runs three: gw0, gw1, gw2). pytest-django gives
each worker a database of its own; this gives each a Redis database and key prefix of its own, so
their caches, real-time groups and task queues never meet. Loaded with `-p` (pyproject.toml) so it
runs before the settings are read, and through the environment, so the servers and workers a test
starts inherit the same values."""

import os
from urllib.parse import urlsplit, urlunsplit

_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker.startswith("gw"):
    number = int(_worker.removeprefix("gw"))
    redis_url = os.environ.get("REDIS_URL", "")
    if redis_url:
        parts = urlsplit(redis_url)
        database = int(parts.path.strip("/") or 0) + 1 + number  # the undivided run keeps its own
        os.environ["REDIS_URL"] = urlunsplit(parts._replace(path=f"/{database}"))
    os.environ["CACHE_KEY_PREFIX"] = f"{os.environ.get('CACHE_KEY_PREFIX', 'kiosk')}-{_worker}"

# Every PostgreSQL session of the run (the tests', their servers', their workers') commits without
# waiting for the WAL to reach the disk: a transactional test's teardown TRUNCATEs every table, and
# waiting for those commits' flushes took half the schema fuzz's time. A committed row is still
# seen at once by every other session; only a crash of PostgreSQL itself could lose the last
# commits, and the tests that stop PostgreSQL run private servers (tests/support/private_servers.py).
_pg_options = os.environ.get("PGOPTIONS", "")
if "synchronous_commit" not in _pg_options:
    os.environ["PGOPTIONS"] = f"{_pg_options} -c synchronous_commit=off".strip()
