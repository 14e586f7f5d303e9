"""wrk driving for the throughput benchmarks: one keep-alive load round against one URL, with the
server process's CPU time over the round (from /proc), so each figure comes with its CPU cost
per request."""

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import harness
from harness import say

# wrk calls done() once at the end; percentiles are in microseconds.
WRK_REPORT_LUA = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRKJSON {\\"requests\\": %d, \\"duration_us\\": %d, \\"p50_us\\": %d, \\"p90_us\\": %d, " ..
    "\\"p99_us\\": %d, \\"max_us\\": %d, \\"connect_errors\\": %d, \\"read_errors\\": %d, " ..
    "\\"write_errors\\": %d, \\"timeouts\\": %d, \\"non_2xx\\": %d}\\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90),
    latency:percentile(99), latency.max, e.connect, e.read, e.write, e.timeout, e.status))
end
"""
_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


@dataclass
class WrkResult:
    name: str
    requests: int
    duration_s: float
    p50_ms: float
    p90_ms: float
    p99_ms: float
    max_ms: float
    errors: int
    non_2xx: int
    cpu_s: float = 0.0  # the server process's user + system CPU time over the round

    @property
    def rps(self) -> float:
        return self.requests / self.duration_s if self.duration_s else 0.0

    @property
    def cpu_us_per_request(self) -> float:
        return self.cpu_s / self.requests * 1e6 if self.requests else 0.0

    @property
    def failed(self) -> int:
        return self.errors + self.non_2xx


def require_wrk() -> str:
    wrk = shutil.which("wrk")
    if wrk is None:
        say("ERROR: `wrk` is not installed; this benchmark needs it to drive keep-alive HTTP load.")
        say("       Install it with:  apt-get install -y wrk   (Debian package `wrk`), then rerun.")
        sys.exit(3)
    return wrk


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and all its threads so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS_PER_SECOND  # utime, stime (fields 14, 15)


def run_wrk(
    wrk: str,
    name: str,
    url: str,
    *,
    seconds: int,
    connections: int = 32,
    threads: int = 1,
    headers: dict[str, str] | None = None,
    method: str = "GET",
    pid: int | None = None,
) -> WrkResult:
    """One wrk round; `pid` is the server process whose CPU time is counted."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_REPORT_LUA if method == "GET" else f'wrk.method = "{method}"\n' + WRK_REPORT_LUA)
    argv = [wrk, f"-t{threads}", f"-c{connections}", f"-d{int(seconds)}s", "--timeout", "5s", "-s", script.name]
    for key, value in (headers or {}).items():
        argv += ["-H", f"{key}: {value}"]
    argv.append(url)
    cpu_before = process_cpu_seconds(pid) if pid else 0.0
    try:
        completed = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 30, check=True)
    finally:
        Path(script.name).unlink(missing_ok=True)
    cpu = process_cpu_seconds(pid) - cpu_before if pid else 0.0
    line = next((row for row in completed.stdout.splitlines() if row.startswith("WRKJSON ")), None)
    if line is None:
        raise SystemExit(f"could not read wrk's report:\n{completed.stdout}\n{completed.stderr}")
    data = json.loads(line.removeprefix("WRKJSON "))
    return WrkResult(
        name=name,
        requests=data["requests"],
        duration_s=data["duration_us"] / 1e6,
        p50_ms=data["p50_us"] / 1000,
        p90_ms=data["p90_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        max_ms=data["max_us"] / 1000,
        errors=data["connect_errors"] + data["read_errors"] + data["write_errors"] + data["timeouts"],
        non_2xx=data["non_2xx"],
        cpu_s=cpu,
    )


def combined(name: str, results: list[WrkResult]) -> WrkResult:
    """Several rounds of one target: summed requests, time and CPU; median percentiles."""
    return WrkResult(
        name=name,
        requests=sum(r.requests for r in results),
        duration_s=sum(r.duration_s for r in results),
        p50_ms=statistics.median(r.p50_ms for r in results),
        p90_ms=statistics.median(r.p90_ms for r in results),
        p99_ms=statistics.median(r.p99_ms for r in results),
        max_ms=max(r.max_ms for r in results),
        errors=sum(r.errors for r in results),
        non_2xx=sum(r.non_2xx for r in results),
        cpu_s=sum(r.cpu_s for r in results),
    )


def alternate(wrk: str, targets, args, servers: str = "") -> dict[str, WrkResult]:
    """Short rounds over every target in turn (each a references.Target), so a shared machine's
    drift over seconds falls on every target alike; `args` are those of add_round_options (its
    `--only` picks the targets). Returns each target's rounds combined."""
    if args.only:
        wanted = {name.strip() for name in args.only.split(",")}
        targets = [target for target in targets if target.name in wanted]
    say(
        f"load: wrk -t{args.threads} -c{args.connections} keep-alive, loopback; {args.warmup:g} s warm-up, "
        f"then {args.duration:g} s per target x {args.rounds} alternating rounds; one daphne process each"
        + (f" ({servers})" if servers else "")
    )

    def one(target, seconds: int) -> WrkResult:
        return run_wrk(
            wrk,
            target.name,
            target.url,
            seconds=seconds,
            connections=args.connections,
            threads=args.threads,
            headers=target.headers,
            method=target.method,
            pid=target.pid,
        )

    if args.warmup:
        for target in targets:
            one(target, args.warmup)
    rounds: dict[str, list[WrkResult]] = {target.name: [] for target in targets}
    for number in range(1, args.rounds + 1):
        for target in targets:
            rounds[target.name].append(one(target, args.duration))
        say(f"round {number}: " + ", ".join(f"{name} {results[-1].rps:.0f}" for name, results in rounds.items()))
    return {name: combined(name, results) for name, results in rounds.items()}


def add_round_options(parser, *, db_name: str) -> None:
    """The options of a bench built on `alternate`: round lengths, wrk's load, its database."""
    # Short alternating rounds: a shared machine's speed drifts over seconds, and every target of
    # a round sees the same drift, so many short rounds give steadier ratios than one long pass.
    parser.add_argument("--duration", type=int, default=4, help="seconds of load per target and round (4)")
    parser.add_argument("--warmup", type=int, default=2, help="seconds of unmeasured load per target first (2)")
    parser.add_argument("--rounds", type=int, default=6, help="alternating rounds (6)")
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (1)")
    parser.add_argument("--connections", type=int, default=32, help="concurrent keep-alive connections (32)")
    parser.add_argument("--only", default="", help="comma-separated targets to drive (default: all)")
    parser.add_argument("--db-name", default=db_name)
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL, help="PostgreSQL URL used to create it")
    parser.add_argument("--redis-url", default=harness.DEFAULT_REDIS_URL)
    parser.add_argument("--keep-db", action="store_true", help="leave the database behind for inspection")
