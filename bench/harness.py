"""Shared plumbing for the benchmarks: a throwaway PostgreSQL database, the web server started
exactly as the Procfile's `web` line (on a loopback port), and Django set up in this process
against the same database so fixtures can be made through the services.

Everything here talks to loopback addresses only, and every server started here is stopped by
the `running_servers` context manager (also on Ctrl-C).
"""

import contextlib
import math
import os
import shlex
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
LOOPBACK = "127.0.0.1"

DEFAULT_ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/1"


def say(message: str = "") -> None:
    print(message, flush=True)


@dataclass
class BenchEnv:
    """The environment the server and this process share (DESIGN.md "production" run mode:
    DATABASE_URL and REDIS_URL set, so PostgreSQL, the Redis cache and channels-redis)."""

    db_name: str
    admin_url: str = DEFAULT_ADMIN_URL
    redis_url: str = DEFAULT_REDIS_URL
    cache_prefix: str = "kiosk-bench"
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def database_url(self) -> str:
        base, _, _ = self.admin_url.rpartition("/")
        return f"{base}/{self.db_name}"

    def variables(self) -> dict[str, str]:
        return {
            "DATABASE_URL": self.database_url,
            "REDIS_URL": self.redis_url,
            "CACHE_KEY_PREFIX": self.cache_prefix,
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # Plain HTTP on loopback with generated secrets: a local run, said so explicitly (with
            # DATABASE_URL and no APP_ENV the settings would demand production secrets).
            "APP_ENV": "local",
            **self.extra,
        }

    def apply_here(self) -> None:
        """Export the variables into this process (before Django is imported)."""
        os.environ.update(self.variables())
        if str(ROOT) not in sys.path:
            sys.path.insert(0, str(ROOT))


# ----------------------------------------------------------------------------- database


def _admin_connection(admin_url: str):
    import psycopg

    return psycopg.connect(admin_url, autocommit=True, connect_timeout=5)


def _check_db_name(name: str) -> None:
    if not name.replace("_", "").isalnum():
        raise SystemExit(f"refusing odd database name {name!r}")


def create_database(env: BenchEnv) -> None:
    """Drop (if left over) and create the throwaway database, then migrate it."""
    _check_db_name(env.db_name)
    with _admin_connection(env.admin_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{env.db_name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{env.db_name}"')
    say(f"created database {env.db_name}; migrating ...")
    started = time.monotonic()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, **env.variables()},
        check=True,
        timeout=300,
    )
    say(f"migrated in {time.monotonic() - started:.1f} s")


def drop_database(env: BenchEnv) -> None:
    _check_db_name(env.db_name)
    with contextlib.suppress(Exception), _admin_connection(env.admin_url) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{env.db_name}" WITH (FORCE)')


def clean_up(env: BenchEnv, *, keep_db: bool = False) -> None:
    """After a bench: its Redis keys and database connections, then (unless kept) its database."""
    try:
        clear_redis_prefix(env)
        from django.db import connections

        connections.close_all()
    finally:
        if not keep_db:
            drop_database(env)


def setup_django(env: BenchEnv) -> None:
    env.apply_here()
    import django

    django.setup()


def clear_redis_prefix(env: BenchEnv) -> None:
    """Remove this run's cache keys (throttle buckets, heartbeats) from Redis."""
    import redis

    client = redis.Redis.from_url(env.redis_url, socket_timeout=5)
    try:
        keys = list(client.scan_iter(f"{env.cache_prefix}:*", count=1000))
        for start in range(0, len(keys), 500):
            client.delete(*keys[start : start + 500])
    finally:
        client.close()


# ----------------------------------------------------------------------------- web server


def procfile_web_argv(port: int) -> list[str]:
    """The Procfile's `web` command, with the bind address forced to loopback and the port set."""
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, _, command = line.partition(":")
        if name.strip() == "web":
            break
    else:
        raise SystemExit("Procfile has no `web` line")
    argv = shlex.split(command.strip())
    if "-p" not in argv or "-b" not in argv:
        raise SystemExit(f"cannot place the server on loopback: unexpected Procfile web line {command!r}")
    argv[argv.index("-b") + 1] = LOOPBACK
    argv[argv.index("-p") + 1] = str(port)
    executable = VENV_BIN / argv[0]
    if executable.exists():
        argv[0] = str(executable)
    return argv


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    port: int
    process: subprocess.Popen
    log_path: Path

    @property
    def base_url(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


def _start_server(env: BenchEnv, log_dir: Path) -> Server:
    port = free_port()
    return _spawn(procfile_web_argv(port), {**env.variables(), "PORT": str(port)}, port, log_dir)


def _spawn(argv: list[str], variables: dict[str, str], port: int, log_dir: Path) -> Server:
    log_path = log_dir / f"web-{port}.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        argv,
        cwd=ROOT,
        env={**os.environ, **variables},
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    say(f"started web (pid {process.pid}): {' '.join(shlex.quote(part) for part in argv)}")
    return Server(port=port, process=process, log_path=log_path)


def _wait_ready(server: Server, timeout: float = 60.0, path: str = "/healthz") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(f"the web server exited with {server.process.returncode}:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.base_url}{path}", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise SystemExit(f"the web server on port {server.port} did not answer {path} in {timeout:.0f} s")


def _stop_server(server: Server) -> None:
    process = server.process
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextlib.contextmanager
def running_servers(env: BenchEnv, count: int = 1) -> Iterator[list[Server]]:
    """Start `count` web processes (as a load balancer would front them) and stop them all at
    the end, including on Ctrl-C or SIGTERM."""
    log_dir = Path(tempfile.mkdtemp(prefix="kiosk-bench-"))
    servers: list[Server] = []
    previous = signal.getsignal(signal.SIGTERM)

    def _terminate(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, _terminate)
    try:
        for _ in range(count):
            servers.append(_start_server(env, log_dir))
        for server in servers:
            _wait_ready(server)
        yield servers
    finally:
        for server in servers:
            _stop_server(server)
        signal.signal(signal.SIGTERM, previous)
        say(f"stopped {len(servers)} web process(es); their logs are in {log_dir}")


@contextlib.contextmanager
def running_application(application: str, ready_path: str, variables: dict[str, str] | None = None) -> Iterator[Server]:
    """Plain daphne (the server of the Procfile's `web` line, without our drain launcher, which
    needs the project) serving another ASGI application on loopback: the benchmarks' references
    (bench/references.py). Stopped at the end, also on Ctrl-C."""
    log_dir = Path(tempfile.mkdtemp(prefix="kiosk-bench-ref-"))
    port = free_port()
    argv = [sys.executable, "-m", "daphne", "-b", LOOPBACK, "-p", str(port), application]
    server = _spawn(argv, variables or {}, port, log_dir)
    try:
        _wait_ready(server, path=ready_path)
        yield server
    finally:
        _stop_server(server)


# ----------------------------------------------------------------------------- fixtures


@dataclass
class Tenant:
    owner_id: int
    business_id: int
    kiosk_id: int
    device_id: str
    device_token: str

    @property
    def device_headers(self) -> dict[str, str]:
        return {"X-Device-Id": self.device_id, "X-Device-Token": self.device_token}


def make_tenant() -> Tenant:
    """One owner, one business and one kiosk paired through the real pairing services."""
    import uuid

    from apps.accounts.models import Business, Owner
    from apps.kiosks.services import kiosk_pair, pairing_code_create

    owner = Owner.objects.create(name="Bench Owner")
    business = Business.objects.create(owner=owner, name="Bench Burgers", tax_rate_bps=875)
    _, code = pairing_code_create(business=business)
    device_id = uuid.uuid4()
    kiosk, token = kiosk_pair(code=code, device_id=device_id, device_name="Bench kiosk")
    return Tenant(owner.pk, business.pk, kiosk.pk, str(device_id), token)


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(pct / 100 * len(ordered))))
    return ordered[rank - 1]
