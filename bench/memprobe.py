"""The web process with a memory probe, for finding what grows in a soak (bench/soak.py --probe).

    python bench/memprobe.py REPORT_FILE <config.serve's arguments>

Runs config/serve.py (the Procfile's web server). The first SIGUSR2 starts tracemalloc (not
before: tracing the imports made a start under load take minutes) and takes the baseline; each
later one appends to REPORT_FILE the process's RSS, Python's allocated blocks, the allocations made
since the first signal that are still alive (by traceback, tracemalloc), and the object types whose
counts grew most (the gc's view). tracemalloc makes the process slower and bigger: compare probed
runs with probed runs only. With MEMPROBE_TRACEBACKS=0 it leaves tracemalloc off and reports the
rest (cheap enough for a soak at full speed: is it Python's objects that grow, and which?).
With MEMPROBE_GARBAGE=1 each report lists the types of the objects a full collection finds
unreachable (reference cycles, which only the collector frees). With MEMPROBE_TRIM=1 each report
also gives the RSS after glibc's malloc_trim(0), then after a full collection and another trim,
with their times (is the growth memory already freed that the allocator kept?).
"""

import collections
import ctypes
import gc
import os
import runpy
import signal
import sys
import time
import tracemalloc
from pathlib import Path

FRAMES = 6
TOP = 15
TRACEBACKS = os.environ.get("MEMPROBE_TRACEBACKS", "1") != "0"
TRIM = os.environ.get("MEMPROBE_TRIM", "0") == "1"
GARBAGE = os.environ.get("MEMPROBE_GARBAGE", "0") == "1"

report_path = Path(sys.argv[1])
baseline: dict[str, object] = {}


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def type_counts() -> collections.Counter:
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def traced():
    if not TRACEBACKS:
        return None
    if not tracemalloc.is_tracing():
        tracemalloc.start(FRAMES)
    return tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    )


def report(signum, frame) -> None:
    snapshot = traced()
    counts = type_counts()
    lines = [f"\n=== {time.strftime('%H:%M:%S')}  RSS {rss_mb():.1f} MB  blocks {sys.getallocatedblocks()}"]
    if GARBAGE:  # what the collector finds unreachable: the cycles that only a full collection frees
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        found = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage)
        gc.garbage.clear()
        gc.set_debug(0)
        lines.append(f"-- garbage in cycles: {sum(found.values())} objects; most common types:")
        lines.extend(f"{count:+10d}  {name}" for name, count in found.most_common(TOP * 2))
    if TRIM:
        libc = ctypes.CDLL("libc.so.6")
        began = time.perf_counter()
        libc.malloc_trim(0)
        trimmed, trim_ms = rss_mb(), (time.perf_counter() - began) * 1000
        began = time.perf_counter()
        gc.collect()
        collected, collect_ms = rss_mb(), (time.perf_counter() - began) * 1000
        libc.malloc_trim(0)
        lines.append(
            f"after malloc_trim(0) RSS {trimmed:.1f} MB ({trim_ms:.0f} ms), then gc.collect() {collected:.1f} MB "
            f"({collect_ms:.0f} ms), then malloc_trim(0) {rss_mb():.1f} MB"
        )
    if not baseline:
        baseline.update(snapshot=snapshot, counts=counts)
        lines.append("(baseline)")
    else:
        lines.append("-- allocations grown most since the baseline (tracemalloc, by traceback):")
        for stat in snapshot.compare_to(baseline["snapshot"], "traceback")[:TOP] if snapshot is not None else []:
            lines.append(f"{stat.size_diff / 1024:+10.1f} KiB {stat.count_diff:+8d} blocks")
            lines.extend(f"      {frame_line}" for frame_line in stat.traceback.format(limit=FRAMES))
        lines.append("-- object types grown most (gc):")
        grown = sorted(((counts[name] - baseline["counts"].get(name, 0), name) for name in counts), reverse=True)
        lines.extend(f"{diff:+10d}  {name} ({counts[name]})" for diff, name in grown[:TOP])
    with report_path.open("a") as out:
        out.write("\n".join(lines) + "\n")


signal.signal(signal.SIGUSR2, report)
sys.argv = ["config.serve", *sys.argv[2:]]
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
runpy.run_module("config.serve", run_name="__main__", alter_sys=True)
