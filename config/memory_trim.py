"""Give the memory the web process has freed back to the system, so that it stays flat under churn.

A WebSocket churn (connect, subscribe, close, as reconnecting kiosks and reloading dashboards do
all day) grew the web process on Redis by about 4.5 MB per 1,000 cycles, in steps, with no end in
100,000 cycles. Two causes, both measured with bench/memprobe.py (docs/scaling.md):

- every closed WebSocket leaves its server-side objects (daphne's protocol, autobahn's, Twisted's
  connection and the HTTP request it was upgraded from: about 60 objects) in reference cycles,
  which only a full collection frees, and config/asgi.py's thresholds make those rare;
- what a collection frees, glibc keeps in its arenas instead of returning it: `malloc_trim(0)`
  alone gave back 2 MB, a full collection then `malloc_trim(0)` 20-50 MB.

So every MEMORY_TRIM_SECONDS the web process calls `give_back`: a full collection once
MEMORY_COLLECT_AFTER_CLOSED connections have closed since the last one (it took 200-450 ms
after 5,000 closes; nothing when nobody reconnects), then glibc's `malloc_trim(0)` (a few ms).
Elsewhere than glibc (musl, macOS) there is no such call, and only the collection runs.
"""

import ctypes
import ctypes.util
import functools
import gc
import logging
from collections.abc import Callable

from prometheus_client import Counter

logger = logging.getLogger(__name__)

COLLECTIONS = Counter(
    "kiosk_memory_collections", "Full garbage collections the web process ran after many WebSockets closed."
)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None


def trim_available() -> bool:
    return _malloc_trim() is not None


def return_freed_memory() -> bool:
    """Ask the C allocator to give its free memory back; True if it returned some."""
    trim = _malloc_trim()
    if trim is None:
        return False
    try:
        return bool(trim(0))
    except Exception:  # a failed trim must never take the web process with it
        logger.warning("malloc_trim failed", exc_info=True)
        return False


def give_back(*, collect: bool) -> None:
    """The web process's periodic housekeeping: free the closed connections' cycles (`collect`),
    then return what is free to the system."""
    if collect:
        gc.collect()
        COLLECTIONS.inc()
    return_freed_memory()
