"""The locks (`requirements.lock`, `requirements-dev.lock`) are compiled from the human lists
(`requirements.txt`, `requirements-dev.txt`) by `make lock`; installs come from the locks. A
pin changed in a list without `make lock` would be installed at the lock's old version, so this
fails until the lock is regenerated."""

import re
from pathlib import Path

import pytest

from tests.support.processes import ROOT

PIN = re.compile(r"^([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?==([^\s;\\]+)", re.MULTILINE)


def _pins(path: Path) -> dict[str, str]:
    return {re.sub(r"[-_.]+", "-", name).lower(): version for name, version in PIN.findall(path.read_text())}


@pytest.mark.parametrize(
    ("human", "lock"),
    [("requirements.txt", "requirements.lock"), ("requirements-dev.txt", "requirements-dev.lock")],
)
def test_every_pin_of_the_human_list_is_in_its_lock(human, lock):
    wanted = _pins(ROOT / human)
    locked = _pins(ROOT / lock)
    assert wanted, f"no pins read from {human}"
    stale = {name: (version, locked.get(name)) for name, version in wanted.items() if locked.get(name) != version}
    assert not stale, f"{lock} is stale (wanted, locked): {stale}; run `make lock` and commit the locks"


@pytest.mark.parametrize("lock", ["requirements.lock", "requirements-dev.lock"])
def test_every_locked_package_carries_a_hash(lock):
    text = (ROOT / lock).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", text.split("\n", 6)[-1])
    missing = [e.split()[0] for e in entries if PIN.match(e) and "--hash=sha256:" not in e]
    assert not missing, f"{lock} has packages without hashes: {missing}"


def test_the_runtime_lock_and_the_dev_lock_agree():
    runtime = _pins(ROOT / "requirements.lock")
    dev = _pins(ROOT / "requirements-dev.lock")
    differ = {name: (version, dev.get(name)) for name, version in runtime.items() if dev.get(name) != version}
    assert not differ, f"the dev lock installs other versions than the runtime lock: {differ}; run `make lock`"
