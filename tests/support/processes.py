"""Real server processes for tests: the Procfile's web server (daphne, run by config/serve.py) on a
loopback port pointed at the pytest database, a private redis-server and a private PostgreSQL cluster.
Every process started here is stopped by its context manager."""

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.db import connection

from tests.support.private_servers import free_port, wait_until  # noqa: F401 - tests import them from here too
from tests.support.timings import timed

ROOT = Path(__file__).resolve().parents[2]
WEB_SERVER = [sys.executable, "-m", "config.serve"]  # the Procfile's `web` command
# The servers' Redis keys (fan-out group, presence) live under their own prefix: the suite's
# per-test cache clearing must not pull them from under a server that outlives one test.
CHILD_PREFIX = f"{settings.CACHE_KEY_PREFIX}-live{os.getpid()}"


@dataclass
class LiveServer:
    port: int
    process: subprocess.Popen
    log_path: Path
    cache_prefix: str = CHILD_PREFIX  # its Redis keys, removed when it stops

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws_url(self, key: str | None = None, query: str = "protocol=7&client=js&version=8.6.0&flash=false") -> str:
        return f"ws://127.0.0.1:{self.port}/app/{key or settings.REALTIME_APP_KEY}?{query}"

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-8000:]


def database_url_for_child(tmp_path: Path) -> str | None:
    """The child's DATABASE_URL: the pytest-django test database itself on PostgreSQL. On SQLite
    (None) the committed rows are copied to VAR_DIR/db.sqlite3, the embedded default's file."""
    db = connection.settings_dict
    if connection.vendor == "postgresql":
        credentials = quote(db["USER"] or "") + (f":{quote(db['PASSWORD'])}" if db["PASSWORD"] else "")
        return f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    connection.ensure_connection()
    (tmp_path / "var").mkdir(parents=True, exist_ok=True)
    target = sqlite3.connect(tmp_path / "var" / "db.sqlite3")
    connection.connection.backup(target)
    target.close()
    return None


def child_env(tmp_path: Path, *, database_url: str | None = None, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE"} and not key.startswith("PYTEST")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        SECRET_KEY=settings.SECRET_KEY,
        REALTIME_APP_ID=str(settings.REALTIME_APP_ID),
        REALTIME_APP_KEY=settings.REALTIME_APP_KEY,
        REALTIME_APP_SECRET=settings.REALTIME_APP_SECRET,
        WEBHOOK_SECRET_KEYS=",".join(settings.WEBHOOK_SECRET_KEYS),
        CACHE_KEY_PREFIX=CHILD_PREFIX,
        TASK_MODE="sync",
        SESSION_COOKIE_SECURE="false",
        VAR_DIR=str(tmp_path / "var"),
        PYTHONUNBUFFERED="1",
    )
    if settings.REDIS_URL:
        env["REDIS_URL"] = settings.REDIS_URL
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(extra)
    return env


def start_daphne(tmp_path: Path, **env_extra: str) -> LiveServer:
    """A test's own daphne with `env_extra` over the test settings. Its drain at stop_daphne() is
    no test's subject: a grace of 1 s (SHUTDOWN_GRACE_SECONDS), not the 10 s of production that
    waited for idle keep-alive connections; a test of the drain itself passes its own grace."""
    env_extra.setdefault("SHUTDOWN_GRACE_SECONDS", "1")
    with timed("server start", env=sorted(env_extra)):
        return _start_daphne(tmp_path, **env_extra)


def _start_daphne(tmp_path: Path, **env_extra: str) -> LiveServer:
    port = free_port()
    tmp_path.mkdir(parents=True, exist_ok=True)
    log_path = tmp_path / f"daphne-{port}.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*WEB_SERVER, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=child_env(tmp_path, **{"PORT": str(port), **env_extra}),  # PORT: the demo processor's address
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    server = LiveServer(port, process, log_path, env_extra.get("CACHE_KEY_PREFIX", CHILD_PREFIX))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"daphne exited with {process.returncode}:\n{server.log()}")
        try:
            with urllib.request.urlopen(f"{server.base_url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.02)  # a refused connection costs nothing: the first answer is not waited for
    stop_daphne(server)
    raise AssertionError(f"daphne did not answer /healthz:\n{server.log()}")


def stop_daphne(server: LiveServer) -> None:
    with timed("server stop"):
        _stop_daphne(server)


def _stop_daphne(server: LiveServer) -> None:
    if server.process.poll() is None:
        server.process.send_signal(signal.SIGTERM)  # drains, within SHUTDOWN_GRACE_SECONDS
        try:
            server.process.wait(timeout=settings.SHUTDOWN_GRACE_SECONDS + 5)
        except subprocess.TimeoutExpired:
            server.process.kill()
            server.process.wait(timeout=10)
    if settings.REDIS_URL:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL)
        for key in client.scan_iter(f"{server.cache_prefix}:*"):
            client.delete(key)
        client.close()


@contextlib.contextmanager
def web_server(**env: str) -> Iterator[str]:
    """daphne on the test database (committed rows: use transaction=True tests); yields its URL.
    `env` overrides the child's environment (e.g. another DATABASE_URL or REDIS_URL)."""
    workdir = Path(tempfile.mkdtemp(prefix="kiosk-web-"))
    database_url = env.pop("DATABASE_URL", None) or database_url_for_child(workdir)
    server = start_daphne(workdir, database_url=database_url, **env)
    try:
        yield server.base_url
    finally:
        stop_daphne(server)
        shutil.rmtree(workdir, ignore_errors=True)


def _tcp_queues(local_port: int, remote_port: int) -> tuple[int, int] | None:
    """(tx_queue, rx_queue) of the established IPv4 socket local_port -> remote_port, from the
    kernel's table (/proc/net/tcp); None while there is none."""
    with open("/proc/net/tcp") as table:
        for line in table.readlines()[1:]:
            fields = line.split()
            local, remote, state, queues = fields[1], fields[2], fields[3], fields[4]
            ports = int(local.rsplit(":", 1)[1], 16), int(remote.rsplit(":", 1)[1], 16)
            if state == "01" and ports == (local_port, remote_port):
                tx, rx = queues.split(":")
                return int(tx, 16), int(rx, 16)
    return None


def read_by_server(sock: socket.socket, server_port: int, timeout: float = 10) -> None:
    """Wait until the server process has read everything sent on the client socket `sock` (a
    loopback connection to `server_port`): the server acknowledged every byte (the client's send
    queue is empty) and its end holds nothing unread. A request sent is then in flight in the
    server, not merely on its way to it: the signal a test waits for instead of a fixed sleep."""
    client_port = sock.getsockname()[1]

    def read() -> bool:
        client, server = _tcp_queues(client_port, server_port), _tcp_queues(server_port, client_port)
        return client is not None and server is not None and client[0] == 0 and server[1] == 0

    wait_until(read, timeout, f"the server on port {server_port} reading the request", every=0.01)


def manage(env: dict, *args: str) -> str:
    """Run `manage.py` with `env` added to this environment; its stdout (it must succeed)."""
    result = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout
