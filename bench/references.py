"""The reference servers every throughput benchmark measures against, started through harness on
the same daphne as the project (plain `python -m daphne`, the server of the Procfile's `web` line):

  raw            bench/reference_apps/raw_asgi.py: a raw ASGI callable answering {"ok": true}
  django-async   bench/reference_apps/minimal_django: what `startproject` generates (its seven
  django-sync    middleware, Django's own ASGI handler), one async and one sync view answering
                 the same body

    with references.running() as refs:
        targets = [*refs.targets(), Target("ping", f"{project.base_url}/bench/ping", project_pid)]

Each benchmark alternates short wrk rounds over its targets (bench/ceiling.py shows how), so the
drift of a shared machine falls on every target alike.
"""

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

import harness

RAW_ASGI = "bench.reference_apps.raw_asgi:application"
MINIMAL_DJANGO = "bench.reference_apps.minimal_django.asgi:application"


@dataclass
class Target:
    """One URL to drive, and the server process whose CPU time it costs."""

    name: str
    url: str
    pid: int
    headers: dict[str, str] = field(default_factory=dict)
    method: str = "GET"


@dataclass
class References:
    raw: harness.Server
    django: harness.Server

    def targets(self) -> list[Target]:
        return [
            Target("raw", f"{self.raw.base_url}/", self.raw.process.pid),
            Target("django-async", f"{self.django.base_url}/async", self.django.process.pid),
            Target("django-sync", f"{self.django.base_url}/sync", self.django.process.pid),
        ]


@contextlib.contextmanager
def running() -> Iterator[References]:
    """Start both reference servers; stop them at the end (also on Ctrl-C)."""
    with (
        harness.running_application(RAW_ASGI, "/") as raw,
        harness.running_application(MINIMAL_DJANGO, "/sync") as django,
    ):
        yield References(raw=raw, django=django)
