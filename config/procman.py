"""`make prod`'s process manager: honcho, given a stop timeout longer than the web's drain.

    python -m config.procman start     (honcho's own command line)

When one process of the Procfile stops, honcho sends SIGTERM to the others and kills what is
still running KILL_WAIT seconds later: 5 s, shorter than the web process's drain
(SHUTDOWN_GRACE_SECONDS, 10 s), so a deploy cut requests the drain would have finished. honcho
has no option or documented API for that wait, only its module constant `honcho.manager.KILL_WAIT`;
this adapter is the one place that sets it (to the grace plus 5 s). honcho is pinned exactly in
requirements.txt, and tests/operations/test_procman.py fails loudly if the name disappears in an upgrade.
"""

import os
import sys

import honcho.manager
from honcho.command import main

STOP_MARGIN_SECONDS = 5.0  # after the web's grace: its last log lines and the interpreter's exit


def stop_timeout_seconds() -> float:
    return float(os.environ.get("SHUTDOWN_GRACE_SECONDS", "10")) + STOP_MARGIN_SECONDS


def set_stop_timeout(seconds: float) -> None:
    if not isinstance(getattr(honcho.manager, "KILL_WAIT", None), int | float):
        raise RuntimeError("honcho.manager.KILL_WAIT is gone: config/procman.py cannot set honcho's stop timeout")
    honcho.manager.KILL_WAIT = seconds


if __name__ == "__main__":
    set_stop_timeout(stop_timeout_seconds())
    sys.exit(main())
