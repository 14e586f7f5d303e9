"""`make prod`'s process manager waits longer than the web process's drain before it kills
(config/procman.py): honcho alone kills 5 s after a stop, inside the 10 s grace."""

import subprocess
import sys

import honcho.manager

from config import procman
from tests.support.processes import ROOT

# A process that needs 7 s to drain after SIGTERM, and one that stops after a second (which makes
# honcho stop the others, as when any process of a deploy exits).
PROCFILE = """\
slow: trap 'sleep 7; echo drained-cleanly; exit 0' TERM; sleep 60 & wait
quick: sleep 1
"""


def test_the_private_name_procman_sets_still_exists():
    assert isinstance(honcho.manager.KILL_WAIT, int | float), "honcho.manager.KILL_WAIT changed: see config/procman.py"


def test_the_stop_timeout_outlasts_the_drain(monkeypatch):
    monkeypatch.setenv("SHUTDOWN_GRACE_SECONDS", "10")
    assert procman.stop_timeout_seconds() == 15


def run(tmp_path, *launcher: str) -> str:
    (tmp_path / "Procfile").write_text(PROCFILE)
    result = subprocess.run(
        [*launcher, "start", "-f", str(tmp_path / "Procfile"), "-d", str(tmp_path), "--no-colour"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "SHUTDOWN_GRACE_SECONDS": "10"},
    )
    return result.stdout + result.stderr


def test_a_process_that_drains_for_7_s_is_not_killed(tmp_path):
    assert "drained-cleanly" in run(tmp_path, sys.executable, "-m", "config.procman")


def test_plain_honcho_would_have_killed_it(tmp_path):
    """The reason for the adapter: if this starts failing, honcho waits long enough on its own."""
    assert "drained-cleanly" not in run(tmp_path, sys.executable, "-m", "honcho")
