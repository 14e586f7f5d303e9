"""Soak one web process with WebSocket churn and watch its memory.

    .venv/bin/python bench/soak.py [--modes embedded,redis] [--cycles 100000] [--every 10000]

Each cycle is what a reconnecting kiosk or a reloading dashboard does: connect, subscribe (a
private channel; every other cycle a presence channel as another member), close cleanly; one
cycle in ten closes before the subscription's answer arrives. Sequential, on one connection at a
time, as in the outside soak run. The web process is the Procfile's `web` line on loopback, in
each mode: the embedded default (SQLite, in-memory layer) and Redis (channels-redis, the Redis
presence store; `--redis-url`, keys under their own prefix, removed afterwards).

Printed every `--every` cycles: the process's resident memory (and, with Redis, the keys under
the run's prefix and Redis's own memory: what the process keeps elsewhere). `--probe FILE` runs
the server under bench/memprobe.py and has it append to FILE, at every mark, the allocations and
object types grown since the first mark (slower: compare probed runs with probed runs only).

The reference, in the same run: a fresh process answering plain HTTP polling (GET /readyz,
through Django's middleware chain) for as long as the churn took, sampled at the same fractions
of that time. The goal: the last 30 % of the cycles add less than 2 % to the memory.
"""

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import LOOPBACK, ROOT, _spawn, _stop_server, _wait_ready, free_port, procfile_web_argv, say  # noqa: E402

CHANNEL_SECRET_ENV = {"REALTIME_APP_ID": "1", "REALTIME_APP_KEY": "soak-key", "REALTIME_APP_SECRET": "soak-secret"}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def signature(socket_id: str, channel: str, channel_data: str | None) -> str:
    import hashlib
    import hmac

    message = f"{socket_id}:{channel}" + (f":{channel_data}" if channel_data else "")
    digest = hmac.new(CHANNEL_SECRET_ENV["REALTIME_APP_SECRET"].encode(), message.encode(), hashlib.sha256)
    return f"{CHANNEL_SECRET_ENV['REALTIME_APP_KEY']}:{digest.hexdigest()}"


async def one_cycle(ws_url: str, i: int) -> None:
    import websockets

    async with websockets.connect(ws_url, open_timeout=10) as ws:
        established = json.loads(await ws.recv())
        if established["event"] != "pusher:connection_established":
            raise SystemExit(f"cycle {i}: the server refused the connection: {established}")
        socket_id = json.loads(established["data"])["socket_id"]
        if i % 2:
            channel, channel_data = "presence-owner.soak", json.dumps({"user_id": f"kiosk-{i}", "user_info": {}})
        else:
            channel, channel_data = f"private-kiosk.{i % 1000}", None
        data = {"channel": channel, "auth": signature(socket_id, channel, channel_data)}
        if channel_data:
            data["channel_data"] = channel_data
        await ws.send(json.dumps({"event": "pusher:subscribe", "data": data}))
        if i % 10 == 9:
            return  # gone before the answer
        while True:
            reply = json.loads(await ws.recv())
            if reply["event"] == "pusher_internal:subscription_succeeded":
                return
            if reply["event"] == "pusher:error":
                raise SystemExit(f"cycle {i}: {reply}")


async def churn(
    ws_url: str, pid: int, cycles: int, every: int, on_mark=lambda: ""
) -> tuple[list[tuple[int, float, float]], float]:
    """[(cycles done, seconds, RSS MB)] sampled every `every` cycles, and the total time.
    `on_mark()` runs at each mark; what it returns is printed on the mark's line."""
    started = time.monotonic()
    samples = [(0, 0.0, rss_mb(pid))]
    for i in range(cycles):
        await one_cycle(ws_url, i)
        if (i + 1) % every == 0:
            samples.append((i + 1, time.monotonic() - started, rss_mb(pid)))
            extra = on_mark()
            say(f"  {i + 1:>7} cycles  {samples[-1][1]:7.1f} s  RSS {samples[-1][2]:7.1f} MB  {extra}")
    return samples, time.monotonic() - started


def redis_footprint(redis_url: str, prefix: str) -> str:
    """The keys under the run's prefix (by kind, with the largest) and Redis's used memory."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        kinds, largest = {}, ("", 0)
        for key in client.scan_iter(f"{prefix}:*", count=1000):
            kind = client.type(key).decode()
            kinds[kind] = kinds.get(kind, 0) + 1
            size = {"hash": client.hlen, "zset": client.zcard, "set": client.scard, "list": client.llen}.get(kind)
            if size and (n := size(key)) > largest[1]:
                largest = (key.decode(), n)
        used = client.info("memory")["used_memory"] / 2**20
        return f"redis {used:.1f} MB, keys {kinds}, largest {largest[0]} ({largest[1]})"
    finally:
        client.close()


def poll(base_url: str, pid: int, seconds: float, marks: list[float]) -> list[tuple[float, float, int]]:
    """GET /readyz in a loop for `seconds`; [(seconds, RSS MB, requests so far)] at each mark."""
    started, requests_done, samples = time.monotonic(), 0, [(0.0, rss_mb(pid), 0)]
    pending = list(marks)
    while pending:
        with urllib.request.urlopen(f"{base_url}/readyz", timeout=10) as response:
            response.read()
        requests_done += 1
        elapsed = time.monotonic() - started
        if elapsed >= pending[0]:
            pending.pop(0)
            samples.append((elapsed, rss_mb(pid), requests_done))
            say(f"  {elapsed:7.1f} s  {requests_done:>7} requests  RSS {samples[-1][1]:7.1f} MB")
    return samples


def growth_of_last_30_percent(values: list[float]) -> float:
    """Percent added over the last 30 % of the samples (the first sample is the start)."""
    start = values[round((len(values) - 1) * 0.7)]
    return 100 * (values[-1] - start) / start


def server_variables(mode: str, var_dir: Path, redis_url: str) -> dict[str, str]:
    variables = {
        "APP_ENV": "local",
        "VAR_DIR": str(var_dir),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "REALTIME_MAX_CONNECTIONS": "100000",
        "PYTHONUNBUFFERED": "1",
        **CHANNEL_SECRET_ENV,
    }
    if mode == "redis":
        variables.update(REDIS_URL=redis_url, CACHE_KEY_PREFIX=f"kiosk-soak{os.getpid()}")
    return variables


def start(variables: dict[str, str], log_dir: Path, probe: Path | None = None):
    port = free_port()
    argv = procfile_web_argv(port)
    if probe is not None:  # [python, -m, config.serve, ...] -> [python, bench/memprobe.py, FILE, ...]
        argv = [argv[0], str(ROOT / "bench" / "memprobe.py"), str(probe), *argv[3:]]
    server = _spawn(argv, {**variables, "PORT": str(port)}, port, log_dir)
    _wait_ready(server)
    return server


def migrate(variables: dict[str, str]) -> None:
    import subprocess

    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env={**os.environ, **variables},
        check=True,
        timeout=600,
    )


def clear_prefix(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        for key in client.scan_iter(f"{prefix}:*", count=1000):
            client.delete(key)
    finally:
        client.close()


def soak(mode: str, args) -> dict:
    say(f"\n== {mode}: {args.cycles} WebSocket cycles, memory every {args.every}")
    var_dir = Path(tempfile.mkdtemp(prefix=f"kiosk-soak-{mode}-"))
    variables = server_variables(mode, var_dir, args.redis_url)
    migrate(variables)
    probe = Path(args.probe).with_suffix(f".{mode}.txt") if args.probe else None
    server = start(variables, var_dir, probe)

    def on_mark() -> str:
        if probe is not None:  # the report blocks the server's loop for a while: wait for it
            written = probe.stat().st_size if probe.exists() else 0
            os.kill(server.process.pid, signal.SIGUSR2)
            deadline = time.monotonic() + 600
            while (probe.stat().st_size if probe.exists() else 0) == written and time.monotonic() < deadline:
                time.sleep(0.5)
        return redis_footprint(args.redis_url, variables["CACHE_KEY_PREFIX"]) if mode == "redis" else ""

    try:
        ws_url = f"ws://{LOOPBACK}:{server.port}/app/{CHANNEL_SECRET_ENV['REALTIME_APP_KEY']}?protocol=7"
        samples, seconds = asyncio.run(churn(ws_url, server.process.pid, args.cycles, args.every, on_mark))
    finally:
        _stop_server(server)
    if args.no_polling:
        if mode == "redis":
            clear_prefix(args.redis_url, variables["CACHE_KEY_PREFIX"])
        growth = growth_of_last_30_percent([rss for _, _, rss in samples])
        say(f"== {mode}: WebSocket churn last 30 % of cycles +{growth:.2f} % (goal < 2 %)")
        return {"mode": mode, "churn": samples, "polling": [(0, 1, 0)] * 2, "churn_growth": growth, "poll_growth": 0.0}
    say(f"== {mode}: plain HTTP polling (GET /readyz) for the same {seconds:.0f} s, on a fresh process")
    server = start(variables, var_dir)
    try:
        marks = [at for _, at, _ in samples[1:]]
        polled = poll(server.base_url, server.process.pid, seconds, marks)
    finally:
        _stop_server(server)
        if mode == "redis":
            clear_prefix(args.redis_url, variables["CACHE_KEY_PREFIX"])
    churn_growth = growth_of_last_30_percent([rss for _, _, rss in samples])
    poll_growth = growth_of_last_30_percent([rss for _, rss, _ in polled])
    say(
        f"== {mode}: WebSocket churn {samples[0][2]:.0f} -> {samples[-1][2]:.0f} MB, last 30 % of cycles "
        f"+{churn_growth:.2f} % (goal < 2 %); HTTP polling {polled[0][1]:.0f} -> {polled[-1][1]:.0f} MB, "
        f"last 30 % +{poll_growth:.2f} %"
    )
    return {"mode": mode, "churn": samples, "polling": polled, "churn_growth": churn_growth, "poll_growth": poll_growth}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modes", default="embedded,redis")
    parser.add_argument("--cycles", type=int, default=100_000)
    parser.add_argument("--every", type=int, default=10_000)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/1")
    parser.add_argument("--probe", help="run the server under bench/memprobe.py, reports to FILE.<mode>.txt")
    parser.add_argument("--no-polling", action="store_true", help="skip the HTTP polling reference")
    args = parser.parse_args()
    for name in ("DATABASE_URL", "REDIS_URL", "APP_ENV"):  # each mode says its own (the children inherit)
        os.environ.pop(name, None)
    results = [soak(mode, args) for mode in args.modes.split(",")]
    say("\nsummary")
    for result in results:
        verdict = "ok" if result["churn_growth"] < 2 else "GROWING"
        say(
            f"  {result['mode']:>8}: churn last 30 % +{result['churn_growth']:.2f} % ({verdict}); "
            f"polling reference +{result['poll_growth']:.2f} %"
        )


if __name__ == "__main__":
    main()
