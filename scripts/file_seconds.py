"""Writes tests/file_seconds.json, the seconds each test file took, from a run's JUnit XML
(`pytest --junitxml=PATH`): the suite runs its longest files first (tests/support/ordering.py).
Files under a second are left out (they go by their guess); the seconds a test spent setting up
or tearing down the worker's session-scoped fixtures (its `worker_seconds` properties) are not
its file's.

    .venv/bin/python scripts/file_seconds.py var/junit.xml
"""

import json
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main(junit: str) -> None:
    seconds: Counter[str] = Counter()
    for case in ET.parse(junit).iter("testcase"):  # noqa: S314 - our own run's report
        module = [part for part in case.get("classname", "").split(".") if not part[:1].isupper()]
        # The worker's own set-up and teardown, met by this test (tests/support/ordering.py).
        worker = sum(float(p.get("value", 0)) for p in case.iter("property") if p.get("name") == "worker_seconds")
        seconds["/".join(module) + ".py"] += max(0.0, float(case.get("time", 0)) - worker)
    kept = {path: round(took, 1) for path, took in seconds.most_common() if took >= 1 and (ROOT / path).exists()}
    (ROOT / "tests" / "file_seconds.json").write_text(json.dumps(kept, indent=0) + "\n")
    print(f"{len(kept)} files, {sum(kept.values()):.0f} s in all")


if __name__ == "__main__":
    main(sys.argv[1])
