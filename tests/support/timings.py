"""Where the suite's time goes, counted when SUITE_TIMINGS names a file: each server start and
stop and each browser launch appends one JSON line (what, seconds, the test that asked, env
names it was given) to it. Off by default; read the file with scripts or jq after a run part."""

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def timed(what: str, **detail: object) -> Iterator[None]:
    path = os.environ.get("SUITE_TIMINGS")
    if not path:
        yield
        return
    started = time.monotonic()
    try:
        yield
    finally:
        line = {
            "what": what,
            "seconds": round(time.monotonic() - started, 3),
            "test": os.environ.get("PYTEST_CURRENT_TEST", ""),
            **detail,
        }
        with open(path, "a") as out:  # one short write per line: workers may share the file
            out.write(json.dumps(line) + "\n")
