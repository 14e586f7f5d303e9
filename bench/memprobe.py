"""The web process with a memory probe, for finding what grows in a soak (bench/soak.py --probe).

    python bench/memprobe.py REPORT_FILE <config.serve's arguments>

Runs config/serve.py (the Procfile's web server). The first SIGUSR2 starts tracemalloc (not
before: tracing the imports made a start under load take minutes) and takes the baseline; each
later one appends to REPORT_FILE the process's RSS, Python's allocated blocks, the allocations made
since the first signal that are still alive (by traceback, tracemalloc), and the object types whose
counts grew most (the gc's view). tracemalloc makes the process slower and bigger: compare probed
runs with probed runs only.
"""

import collections
import gc
import runpy
import signal
import sys
import time
import tracemalloc
from pathlib import Path

FRAMES = 6
TOP = 15

report_path = Path(sys.argv[1])
baseline: dict[str, object] = {}


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def type_counts() -> collections.Counter:
    return collections.Counter(type(o).__qualname__ for o in gc.get_objects())


def report(signum, frame) -> None:
    if not tracemalloc.is_tracing():
        tracemalloc.start(FRAMES)
    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    )
    counts = type_counts()
    lines = [f"\n=== {time.strftime('%H:%M:%S')}  RSS {rss_mb():.1f} MB  blocks {sys.getallocatedblocks()}"]
    if not baseline:
        baseline.update(snapshot=snapshot, counts=counts)
        lines.append("(baseline)")
    else:
        lines.append("-- allocations grown most since the baseline (tracemalloc, by traceback):")
        for stat in snapshot.compare_to(baseline["snapshot"], "traceback")[:TOP]:
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
