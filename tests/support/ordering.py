"""The order the suite's files run in: the longest first. `--dist loadfile` hands files to the
workers in this order, so the long ones start early and no worker is left with one at the end
while the others wait. A file's seconds are read from tests/file_seconds.json (measured from a
run's JUnit XML: `make file-seconds`); a file not listed yet counts 5 s per live test and 0.1 s
per other. The worker's own set-up and teardown (its database, the shared live server) would be
counted to whichever file it met first and last: each test records the seconds spent in
session-scoped fixtures in its JUnit properties (`worker_seconds`), which scripts/file_seconds.py
leaves out. Runs after every other plugin's ordering (pytest-django puts a file's database tests
before its transactional ones), which is kept within each file."""

import json
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FILE_SECONDS = ROOT / "tests" / "file_seconds.json"


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items) -> None:
    measured: dict[str, float] = json.loads(FILE_SECONDS.read_text()) if FILE_SECONDS.exists() else {}
    guessed: Counter[Path] = Counter()
    for item in items:
        guessed[item.path] += 5.0 if item.get_closest_marker("live") else 0.1
    first_seen = {path: index for index, path in reversed(list(enumerate(item.path for item in items)))}

    def seconds(path: Path) -> float:
        return measured.get(str(path.relative_to(ROOT)), guessed[path])

    items.sort(key=lambda item: (-seconds(item.path), first_seen[item.path]))


WORKER_SECONDS = "worker_seconds"


_running: list = []  # the test being run (its setup, call and teardown), for the hooks below
_session_depth = [0]  # session fixtures being set up now: only the outermost is counted


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _running.append(item)
    try:
        yield
    finally:
        _running.remove(item)


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef, request):
    session = fixturedef.scope == "session"
    started = time.monotonic()
    _session_depth[0] += session
    try:
        yield
    finally:
        _session_depth[0] -= session
        took = time.monotonic() - started
        if session and not _session_depth[0] and _running and took >= 0.01:
            _running[-1].user_properties.append((WORKER_SECONDS, round(took, 3)))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """The worker's last test's teardown also ends the session's fixtures: all of it is the worker's."""
    started = time.monotonic()
    yield
    if nextitem is None:
        item.user_properties.append((WORKER_SECONDS, round(time.monotonic() - started, 3)))
