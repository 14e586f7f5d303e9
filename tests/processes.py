"""Real server processes for fault tests: a private redis-server and the Procfile's web server
(daphne) on loopback ports, pointed at the pytest database. Every process started here is
stopped by its context manager."""

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(check, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if check():
                return
        time.sleep(0.1)
    raise TimeoutError(f"{what} not ready after {timeout} s")


def test_database_url() -> str:
    """The URL of the database pytest-django made, for a child process to share."""
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class PrivateRedis:
    """A throwaway redis-server that a test may stop and start again on the same port."""

    def __init__(self):
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(lambda: socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close() is None, 10, "redis")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@contextlib.contextmanager
def web_server(**env: str) -> Iterator[str]:
    """daphne serving config.asgi:application as the Procfile's web line does; yields its base URL."""
    port = free_port()
    child_env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "SESSION_COOKIE_SECURE": "false",
        "CACHE_KEY_PREFIX": f"kiosk-fault-{port}",
        **env,
    }
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"kiosk-web-{port}.log", "wb")  # noqa: SIM115
    process = subprocess.Popen(
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=child_env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: urllib.request.urlopen(f"{base}/healthz", timeout=1).status == 200, 30, "daphne")
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


class PrivatePostgres:
    """A throwaway PostgreSQL cluster (initdb in a temporary folder) that a test may restart.
    As root, the server runs as the `postgres` system user, as PostgreSQL insists."""

    def __init__(self, workdir: Path):
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        self.bin = bins[-1].parent if bins else None
        self.port = free_port()
        self.data = workdir / "pgdata"
        self.as_owner = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        self.workdir = workdir

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/kiosk"

    def _run(self, *argv: str) -> None:
        subprocess.run([*self.as_owner, *argv], check=True, capture_output=True, timeout=120)

    def create(self) -> None:
        if self.as_owner:
            shutil.chown(self.workdir, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "kiosk")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l", str(self.data / "log"), "start"
        )

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
