"""The order the suite's files run in: the longest first. `--dist loadfile` hands files to the
workers in this order, so the long ones start early and no worker is left with one at the end
while the others wait. A file's seconds are read from tests/file_seconds.json (measured from a
run's JUnit XML: `make file-seconds`); a file not listed yet counts 5 s per live test and 0.1 s
per other. Runs after every other plugin's ordering (pytest-django puts a file's database tests
before its transactional ones), which is kept within each file."""

import json
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
