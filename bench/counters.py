"""What one window of a bench cost the service, counted on its private servers (bench/fleet.py).

Counts, which a loaded machine does not disturb:
- SQL round trips: `pg_stat_statements` on the bench's own PostgreSQL cluster (loaded at start,
  `track_utility` on, its default), summed `calls` of the bench's database. Django's psycopg 3
  backend sends every statement, and every BEGIN, COMMIT, SAVEPOINT and RELEASE, as one
  protocol exchange ending in Sync (no pipeline mode), and pg_stat_statements counts each once:
  so the sum is the round trips. The statements are the same less the transaction control.
  (Statements that fail are not counted; a run with errors says so elsewhere.)
- Transactions: `pg_stat_database.xact_commit + xact_rollback` of the bench's database.
- New connections: `pg_stat_database.sessions` of the bench's database (PostgreSQL 14+), and
  Redis `INFO stats` `total_connections_received`.
- Redis commands: the sum of `calls` over `INFO commandstats`, less the `info` calls this module
  makes itself (on one connection, opened before the window).

CPU seconds, which it does disturb: user + system time of every process in the trees of the given
roots (web processes, the Celery worker and its pool children, beat, the postmaster and its
backends, redis-server), the children they already reaped included (a backend that ended in the
window is in its postmaster's cutime/cstime).
"""

import os
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path

from tests.support.private_servers import PrivatePostgres

TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


class CountingPostgres(PrivatePostgres):
    """The private cluster with pg_stat_statements loaded (every statement, top level)."""

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=top"
            " -c pg_stat_statements.max=50000"
        )
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l", str(self.data / "log"), "start"
        )

    def postmaster_pid(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def admin_url(self) -> str:
        """The `postgres` maintenance database: this module's own queries stay out of the counts."""
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"


@dataclass
class Snapshot:
    round_trips: int = 0
    statements: int = 0
    transactions: int = 0
    db_sessions: int = 0
    redis_commands: int = 0
    redis_connections: int = 0
    cpu: float = 0.0
    evicted: int = 0  # pg_stat_statements entries dropped for room: the SQL counts are then short
    by_command: Counter = field(default_factory=Counter)  # Redis command -> calls

    def __sub__(self, other: "Snapshot") -> "Snapshot":
        values = {
            f.name: getattr(self, f.name) - getattr(other, f.name) for f in fields(self) if f.name != "by_command"
        }
        return Snapshot(**values, by_command=self.by_command - other.by_command)


class Counters:
    """Snapshots of the counts above; `database` is the bench's database name."""

    def __init__(self, postgres: CountingPostgres, redis_url: str, database: str):
        import psycopg
        import redis

        self.postgres, self.database = postgres, database
        self.sql = psycopg.connect(postgres.admin_url(), autocommit=True)
        self.sql.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        self.redis = redis.Redis.from_url(redis_url)
        self.info_calls = 0
        self.roots: list[int] = []

    def reconnect(self) -> None:
        """After a fault restarted a server."""
        import psycopg

        self.sql.close()
        self.sql = psycopg.connect(self.postgres.admin_url(), autocommit=True)

    def snapshot(self) -> Snapshot:
        trips, statements = self.sql.execute(
            "SELECT coalesce(sum(s.calls), 0), coalesce(sum(s.calls) FILTER (WHERE NOT ("
            + " OR ".join(f"s.query ILIKE '{word}%%'" for word in TRANSACTION_CONTROL)
            + ")), 0) FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = %s",
            [self.database],
        ).fetchone()
        transactions, sessions = self.sql.execute(
            "SELECT xact_commit + xact_rollback, sessions FROM pg_stat_database WHERE datname = %s", [self.database]
        ).fetchone()
        (evicted,) = self.sql.execute("SELECT dealloc FROM pg_stat_statements_info").fetchone()
        commands = self.redis.info("commandstats")
        self.info_calls += 1  # this one, counted by the server after it answers
        stats = self.redis.info("stats")
        self.info_calls += 1
        redis_commands = sum(v["calls"] for k, v in commands.items() if k != "cmdstat_info")
        return Snapshot(
            round_trips=int(trips),
            statements=int(statements),
            transactions=int(transactions),
            db_sessions=int(sessions),
            redis_commands=redis_commands,
            redis_connections=int(stats["total_connections_received"]),
            cpu=sum(tree_cpu(root) for root in self.roots),
            evicted=int(evicted),
            by_command=Counter(
                {k.removeprefix("cmdstat_"): v["calls"] for k, v in commands.items() if k != "cmdstat_info"}
            ),
        )

    def close(self) -> None:
        self.sql.close()
        self.redis.close()


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every live descendant, with the children each already reaped."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (stat := _stat(int(entry.name))) is not None:
            children.setdefault(int(stat[1]), []).append(int(entry.name))
    ticks, todo = 0, [root]
    while todo:
        pid = todo.pop()
        stat = _stat(pid)
        if stat is None:
            continue
        ticks += sum(int(value) for value in stat[11:15])  # utime, stime, cutime, cstime
        todo.extend(children.get(pid, []))
    return ticks / os.sysconf("SC_CLK_TCK")
