"""Private servers a test or a bench may stop and start again: a throwaway redis-server and a
throwaway PostgreSQL cluster, and the small waits they need. No Django here: `bench/fleet.py`
uses them before Django is set up."""

import contextlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(predicate, timeout: float, what, every: float = 0.1):
    """Poll `predicate` until it returns something truthy (returned) or `timeout` seconds pass: the
    tests' one way to wait for something, instead of a fixed sleep. An exception counts as "not yet".
    `what` names the awaited thing in the TimeoutError; a callable is called then, for current state."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(Exception):
            if value := predicate():
                return value
        time.sleep(every)
    raise TimeoutError(f"{what() if callable(what) else what} not ready after {timeout} s")


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
        listening = lambda: socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close() is None  # noqa: E731
        wait_until(listening, 10, "redis", every=0.02)  # it listens within milliseconds

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


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

    def adopt(self, copy_files) -> None:
        """Start from a copy of a stopped cluster's files: `copy_files(self.data)` puts them there
        (owned by the server's user, as the original's were)."""
        if self.as_owner:
            shutil.chown(self.workdir, "postgres")
        copy_files(self.data)
        self.start()

    def start(self) -> None:
        options = f"-p {self.port} -k {self.workdir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-w", "-l", str(self.data / "log"), "start"
        )

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")
