"""WebSockets on one web process: idle capacity (memory and CPU per connection) and the
fan-out of one broadcast, each against a bare `websockets` server, in one run.

Starts the production stack on loopback (throwaway PostgreSQL database, Redis, the Procfile's
`web` line: one daphne process with channels-redis) and, beside it, the reference: a bare server
on the `websockets` library in its own process that calls `websockets.broadcast` to all its
clients on a trigger message. For each client count (`--clients 500,5000,10000`):

1. idle capacity: N real WebSocket clients per server, spread over client processes
   (bench/ws_clients.py, 2,500 each, so one 2-core machine drives 10,000), each Pusher client
   subscribed to its own `private-agent.{i}` (signed as /broadcasting/auth signs). Memory per
   connection = the server's RSS after the clients connected minus before, divided by N; idle
   CPU = the server process's CPU time over `--idle-seconds` while every client stays silent
   (the servers' own keep-alive pings are answered);
2. fan-out: R rounds, ALTERNATING between the two servers (ours first in even rounds, the
   reference first in odd ones), so a load spike on the shared machine hits both alike: one
   `broadcast()` to all N channels from this process (through Redis, as a service's
   after-commit send does), or one trigger frame to the reference, then every client's arrival.

Delivery latency = the time a client read the event - the time just before the send started
(time.perf_counter is CLOCK_MONOTONIC, one clock for all the processes). Prints p50/p99 of both,
the ratios, and each goal with whether it is met: idle, at most 32 KiB per connection and
under 5 % of a core; the fan-out to 500, p99 <= 3x and p50 <= 1.5x the reference.

    .venv/bin/python bench/ws_fanout.py [--clients 500,5000,10000] [--rounds 50] [--idle-seconds 30]

Run by hand (not by the test suite); figures are in docs/scaling.md.
"""

import argparse
import asyncio
import json
import math
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import harness
from harness import say

GOAL_P99_RATIO, GOAL_P50_RATIO, GOAL_LATENCY_CLIENTS = 3.0, 1.5, 500
GOAL_KIB_PER_CONNECTION, GOAL_IDLE_CPU_PERCENT = 32.0, 5.0
CLIENTS_PER_PROCESS = 2500
BENCH_KEY, BENCH_SECRET, BENCH_APP_ID = "benchkey0000000000000", "benchsecret000000000000000000000", "424242"
CLIENT_SCRIPT = Path(__file__).resolve().parent / "ws_clients.py"


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# ----------------------------------------------------------------------------- the reference


REFERENCE_SERVER = """
import asyncio, sys, websockets
clients = set()
async def handler(ws):
    first = await ws.recv()
    if first == "trigger":  # the control connection: each message is broadcast to every client
        async for payload in ws:
            websockets.broadcast(clients, payload)
        return
    clients.add(ws)
    await ws.send("subscribed")
    try:
        await ws.wait_closed()
    finally:
        clients.discard(ws)
async def main():
    async with websockets.serve(handler, "127.0.0.1", int(sys.argv[1]), max_queue=None):
        print("ready", flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


def start_reference(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-c", REFERENCE_SERVER, str(port)], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    assert process.stdout.readline().strip() == "ready"
    return process


# ----------------------------------------------------------------------------- client processes


class ClientGroup:
    """N clients of one server, spread over client processes (bench/ws_clients.py)."""

    def __init__(self, kind: str, url: str, count: int):
        self.kind, self.url, self.count = kind, url, count
        self.processes: list[asyncio.subprocess.Process] = []
        self.retries = 0  # connection attempts that failed and were made again

    async def open(self) -> None:
        shares = math.ceil(self.count / CLIENTS_PER_PROCESS)
        for share in range(shares):
            first = share * CLIENTS_PER_PROCESS
            size = min(CLIENTS_PER_PROCESS, self.count - first)
            self.processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    str(CLIENT_SCRIPT),
                    self.kind,
                    self.url,
                    str(first),
                    str(size),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    env={**os.environ, "BENCH_KEY": BENCH_KEY, "BENCH_SECRET": BENCH_SECRET},
                    start_new_session=True,
                )
            )
        for process in self.processes:
            line = await asyncio.wait_for(process.stdout.readline(), 600)
            if not line:
                raise SystemExit(f"a {self.kind} client process failed while connecting")
            self.retries += json.loads(line)["retries"]

    async def collect(self, number: int, started: float) -> tuple[list[float], int]:
        command = (json.dumps({"collect": number, "started": started}) + "\n").encode()
        for process in self.processes:
            process.stdin.write(command)
        latencies, missing = [], 0
        for process in self.processes:
            answer = json.loads(await process.stdout.readline())
            latencies.extend(answer["ms"])
            missing += answer["missing"]
        return latencies, missing

    async def close(self) -> None:
        for process in self.processes:
            if process.returncode is None:
                process.stdin.write(b'{"quit": true}\n')
        for process in self.processes:
            try:
                await asyncio.wait_for(process.wait(), 30)
            except TimeoutError:
                process.kill()


# ----------------------------------------------------------------------------- one client count


class Side:
    """One server under test: its process, its clients, how to broadcast, what was measured."""

    def __init__(self, name: str, pid: int, clients: ClientGroup):
        self.name, self.pid, self.clients = name, pid, clients
        self.send = None
        self.latencies: list[float] = []
        self.missing = 0
        self.kib = 0.0
        self.idle_cpu_percent = 0.0

    async def connect(self) -> None:
        before = rss_bytes(self.pid)
        started = time.monotonic()
        await self.clients.open()
        await asyncio.sleep(2.0)  # let the server settle (connection set-up garbage, buffers)
        self.kib = (rss_bytes(self.pid) - before) / self.clients.count / 1024
        elapsed = time.monotonic() - started
        retried = self.clients.retries
        say(f"  {self.name}: {self.clients.count} clients connected in {elapsed:.1f} s ({retried} attempts retried)")

    async def round(self, number: int) -> float:
        started = time.perf_counter()
        await self.send(number)
        latencies, missing = await self.clients.collect(number, started)
        if number >= 0:
            self.latencies.extend(latencies)
            self.missing += missing
        return max(latencies, default=float("nan"))


async def measure_count(server, count: int, rounds: int, warmup: int, idle_seconds: float) -> list[Side]:
    import websockets

    from apps.realtime.broadcast import layer_message
    from apps.realtime.broadcast import send as layer_send

    reference_port = harness.free_port()
    reference = start_reference(reference_port)
    ours = Side(
        "daphne+channels-redis",
        server.process.pid,
        ClientGroup(
            "pusher", f"ws://{harness.LOOPBACK}:{server.port}/app/{BENCH_KEY}?protocol=7&client=bench&version=1", count
        ),
    )
    bare = Side(
        "bare websockets", reference.pid, ClientGroup("reference", f"ws://{harness.LOOPBACK}:{reference_port}/", count)
    )
    sides = [ours, bare]
    # The sender runs on its own event loop and thread, as a web or worker process would send
    # after commit; its channels-redis connections stay open across rounds.
    sender_loop = asyncio.new_event_loop()
    threading.Thread(target=sender_loop.run_forever, daemon=True).start()
    channels = [f"private-agent.{index}" for index in range(count)]

    async def send_ours(number: int) -> None:
        message = layer_message(channels, "BenchEvent", {"round": number})  # what broadcast() sends
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(layer_send(message), sender_loop))

    trigger = None
    try:
        for side in sides:
            await side.connect()
        trigger = await websockets.connect(f"ws://{harness.LOOPBACK}:{reference_port}/", ping_interval=None)
        await trigger.send("trigger")

        async def send_reference(number: int) -> None:
            await trigger.send(json.dumps({"event": "BenchEvent", "round": number}))

        ours.send, bare.send = send_ours, send_reference

        say(f"  idle: {idle_seconds:.0f} s with every client silent ...")
        await asyncio.sleep(1.0)
        before = {side.name: cpu_seconds(side.pid) for side in sides}
        await asyncio.sleep(idle_seconds)
        for side in sides:
            side.idle_cpu_percent = (cpu_seconds(side.pid) - before[side.name]) / idle_seconds * 100

        say(f"  fan-out: {rounds} rounds (+{warmup} warm-up), alternating between the servers")
        for number in range(-warmup, rounds):
            order = sides if number % 2 == 0 else sides[::-1]
            lasts = []
            for side in order:
                await asyncio.sleep(0.05)  # the previous round's frames are all read
                lasts.append(f"{side.name} {await side.round(number):.1f} ms")
            if number < 0 or number % 10 == 9 or os.environ.get("BENCH_VERBOSE"):
                say(f"  round {number:>3}: last arrival " + ", ".join(lasts))
    finally:
        if trigger is not None:
            await trigger.close()
        for side in sides:
            await side.clients.close()
        sender_loop.call_soon_threadsafe(sender_loop.stop)
        reference.terminate()
        reference.wait(10)
    return sides


# ----------------------------------------------------------------------------- report


def report(count: int, sides: list) -> list[tuple[str, float, bool]]:
    ours, bare = sides
    say("")
    say(f"{count} clients")
    say(f"{'':<24}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'missed':>8}{'KiB/conn':>10}{'idle CPU %':>12}")
    for side in (bare, ours):
        p50, p99 = harness.percentile(side.latencies, 50), harness.percentile(side.latencies, 99)
        say(
            f"{side.name:<24}{p50:>9.2f}{p99:>9.2f}{max(side.latencies):>9.2f}{side.missing:>8}"
            f"{side.kib:>10.1f}{side.idle_cpu_percent:>12.2f}"
        )
    p50_ratio = harness.percentile(ours.latencies, 50) / harness.percentile(bare.latencies, 50)
    p99_ratio = harness.percentile(ours.latencies, 99) / harness.percentile(bare.latencies, 99)
    say(f"ratios ours/reference: p50 {p50_ratio:.2f}x, p99 {p99_ratio:.2f}x")
    retried = f"ours {ours.clients.retries}, reference {bare.clients.retries}"
    say(f"connection attempts retried (dropped mid-handshake): {retried}")
    goals = [
        (
            f"idle memory <= {GOAL_KIB_PER_CONNECTION:.0f} KiB per connection at {count}",
            ours.kib,
            ours.kib <= GOAL_KIB_PER_CONNECTION,
        ),
        (
            f"idle CPU < {GOAL_IDLE_CPU_PERCENT:.0f} % of a core at {count}",
            ours.idle_cpu_percent,
            ours.idle_cpu_percent < GOAL_IDLE_CPU_PERCENT,
        ),
        (f"every client got every broadcast at {count}", ours.missing, ours.missing == 0),
    ]
    if count == GOAL_LATENCY_CLIENTS:
        goals.append(
            (f"fan-out to {count}: p99 <= {GOAL_P99_RATIO:.0f}x the reference", p99_ratio, p99_ratio <= GOAL_P99_RATIO)
        )
        goals.append(
            (f"fan-out to {count}: p50 <= {GOAL_P50_RATIO}x the reference", p50_ratio, p50_ratio <= GOAL_P50_RATIO)
        )
    return goals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", default="500", help="client counts, comma-separated (500; e.g. 500,5000,10000)")
    parser.add_argument(
        "--rounds", type=int, default=50, help="measured rounds per server (50; 20 above 1,000 clients)"
    )
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured rounds first (3)")
    parser.add_argument("--idle-seconds", type=float, default=30.0, help="idle CPU window (30 s)")
    parser.add_argument("--db-name", default="kiosk_bench_ws")
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL, help="PostgreSQL URL used to create it")
    parser.add_argument("--redis-url", default=harness.DEFAULT_REDIS_URL)
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is not met")
    args = parser.parse_args()
    counts = [int(part) for part in args.clients.split(",")]

    # Every server here holds up to 10,000 sockets: raise this process's open-file limit, which
    # the servers started from it inherit.
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < max(counts) + 200:
        raise SystemExit(f"the open-file limit ({hard}) is too low for {max(counts)} connections")

    env = harness.BenchEnv(
        db_name=args.db_name,
        admin_url=args.admin_url,
        redis_url=args.redis_url,
        cache_prefix="kiosk-bench-ws",
        extra={
            "REALTIME_APP_KEY": BENCH_KEY,
            "REALTIME_APP_SECRET": BENCH_SECRET,
            "REALTIME_APP_ID": BENCH_APP_ID,
            "REALTIME_MAX_CONNECTIONS": str(max(counts) + 100),
        },
    )
    harness.create_database(env)
    goals = []
    try:
        harness.setup_django(env)
        harness.clear_redis_prefix(env)
        for count in counts:
            rounds = args.rounds if args.rounds != 50 or count <= 1000 else 20
            say(f"{count} clients per server")
            # A fresh web process per count, so its RSS before the clients is a clean baseline.
            with harness.running_servers(env, 1) as (server,):
                sides = asyncio.run(measure_count(server, count, rounds, args.warmup, args.idle_seconds))
            goals.extend(report(count, sides))
    finally:
        harness.clear_redis_prefix(env)
        harness.drop_database(env)

    say("")
    say(f"load average at the end: {os.getloadavg()[0]:.1f} (2 cores shared with other work: compare within this run)")
    say("goals (idle memory and CPU per connection, fan-out latency against the reference):")
    for text, value, met in goals:
        say(f"  {'MET    ' if met else 'NOT MET'}  {text}  ({value:.2f})")
    return 1 if args.check and not all(met for _, _, met in goals) else 0


if __name__ == "__main__":
    os.chdir(harness.ROOT)
    sys.exit(main())
