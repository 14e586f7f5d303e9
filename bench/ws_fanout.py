"""WebSocket fan-out: one broadcast to 500 private agent channels, against a bare `websockets`
broadcast server, in one run.

Starts the production stack on loopback (throwaway PostgreSQL database, Redis, the Procfile's
`web` line: one daphne process with channels-redis), opens N real WebSocket clients speaking the
Pusher protocol, each subscribed to its own `private-agent.{i}` (signed as /broadcasting/auth
signs), then R times: one `broadcast()` to all N channels from this process (through Redis, as
a service's after-commit send does), and waits until every client has it.

The reference is a bare server on the `websockets` library in its own process: N clients, and
on a trigger message it calls `websockets.broadcast` to all of them. Same clients, same loopback.

Delivery latency = time a client reads the event - time just before the send started (one clock:
senders and clients live in this process). Prints p50/p99 of both, memory per connection (RSS of
the server process after the clients connected minus before, divided by N), and the p99 ratio;
the target is <= 3x.

    .venv/bin/python bench/ws_fanout.py [--clients 500] [--rounds 50]

Run by hand (not by the test suite); figures are in docs/realtime.md.
"""

import argparse
import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import harness
from harness import say

TARGET_P99_RATIO = 3.0
BENCH_KEY, BENCH_SECRET, BENCH_APP_ID = "benchkey0000000000000", "benchsecret000000000000000000000", "424242"


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


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


# ----------------------------------------------------------------------------- clients


async def open_clients(count: int, connect_one) -> list:
    limit = asyncio.Semaphore(50)

    async def guarded(index: int):
        async with limit:
            return await connect_one(index)

    return await asyncio.gather(*(guarded(index) for index in range(count)))


async def pusher_client(url: str, index: int):
    import websockets

    from apps.realtime.signing import channel_auth

    ws = await websockets.connect(url, max_queue=None)
    established = json.loads(await ws.recv())
    socket_id = json.loads(established["data"])["socket_id"]
    channel = f"private-agent.{index}"
    await ws.send(
        json.dumps(
            {"event": "pusher:subscribe", "data": {"channel": channel, "auth": channel_auth(socket_id, channel)}}
        )
    )
    reply = json.loads(await ws.recv())
    assert reply["event"] == "pusher_internal:subscription_succeeded", reply
    return ws


async def reference_client(url: str, index: int):
    import websockets

    ws = await websockets.connect(url, max_queue=None)
    await ws.send("subscribe")
    assert await ws.recv() == "subscribed"
    return ws


_unexpected: list[str] = []


def round_of(message: str) -> int | None:
    """The round number inside either server's frame (Pusher's data is a JSON string)."""
    frame = json.loads(message)
    if frame.get("event") != "BenchEvent":
        if not _unexpected:
            say(f"unexpected frame: {message[:200]}")
        _unexpected.append(message)
        return None
    data = json.loads(frame["data"]) if isinstance(frame.get("data"), str) else frame
    return data["round"]


async def measure(clients: list, send, rounds: int, warmup: int) -> tuple[list[float], list[float]]:
    """Per round: note the time, `send(round)`, and collect every client's arrival time."""
    latencies: list[float] = []
    send_costs: list[float] = []
    for number in range(-warmup, rounds):
        arrivals: list[float] = []

        async def read(ws, number=number, arrivals=arrivals):
            while True:
                message = await ws.recv()
                if message.startswith('{"event":"pusher:ping"'):  # answer as pusher-js does
                    await ws.send('{"event":"pusher:pong","data":{}}')
                    continue
                if round_of(message) == number:
                    arrivals.append(time.perf_counter())
                    return

        readers = [asyncio.ensure_future(read(ws)) for ws in clients]
        await asyncio.sleep(0.05)  # readers are waiting before the clock starts
        started = time.perf_counter()
        await send(number)
        sent = time.perf_counter()
        await asyncio.wait_for(asyncio.gather(*readers), 30)
        if number < 0 or number % 10 == 9 or os.environ.get("BENCH_VERBOSE"):
            say(f"  round {number:>3}: last arrival {(max(arrivals) - started) * 1000:.1f} ms after the send began")
        if number >= 0:
            latencies.extend((arrival - started) * 1000 for arrival in arrivals)
            send_costs.append((sent - started) * 1000)
    return latencies, send_costs


def summary(name: str, latencies: list[float], per_connection: float, send_costs: list[float]) -> dict:
    return {
        "name": name,
        "p50": harness.percentile(latencies, 50),
        "p99": harness.percentile(latencies, 99),
        "max": max(latencies),
        "send": harness.percentile(send_costs, 50),
        "kib": per_connection / 1024,
    }


# ----------------------------------------------------------------------------- the two runs


async def run_ours(server, count: int, rounds: int, warmup: int) -> dict:
    from apps.realtime.broadcast import layer_message
    from apps.realtime.broadcast import send as layer_send

    pid = server.process.pid
    before = rss_bytes(pid)
    url = f"ws://{harness.LOOPBACK}:{server.port}/app/{BENCH_KEY}?protocol=7&client=bench&version=1"
    clients = await open_clients(count, lambda index: pusher_client(url, index))
    await asyncio.sleep(1.0)
    per_connection = (rss_bytes(pid) - before) / count
    channels = [f"private-agent.{index}" for index in range(count)]

    # The sender runs on its own event loop and thread, as a web or worker process would send
    # after commit; its channels-redis connections stay open across rounds.
    sender_loop = asyncio.new_event_loop()
    threading.Thread(target=sender_loop.run_forever, daemon=True).start()

    async def send(number: int) -> None:
        message = layer_message(channels, "BenchEvent", {"round": number})  # what broadcast() sends
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(layer_send(message), sender_loop))

    latencies, costs = await measure(clients, send, rounds, warmup)
    await asyncio.gather(*(ws.close() for ws in clients))
    sender_loop.call_soon_threadsafe(sender_loop.stop)
    return summary("daphne+channels-redis", latencies, per_connection, costs)


async def run_reference(count: int, rounds: int, warmup: int) -> dict:
    import websockets

    port = harness.free_port()
    process = start_reference(port)
    try:
        before = rss_bytes(process.pid)
        url = f"ws://{harness.LOOPBACK}:{port}/"
        clients = await open_clients(count, lambda index: reference_client(url, index))
        await asyncio.sleep(1.0)
        per_connection = (rss_bytes(process.pid) - before) / count
        trigger = await websockets.connect(url)
        await trigger.send("trigger")

        async def send(number: int) -> None:
            await trigger.send(json.dumps({"event": "BenchEvent", "round": number}))

        latencies, costs = await measure(clients, send, rounds, warmup)
        await asyncio.gather(*(ws.close() for ws in clients), trigger.close())
        return summary("bare websockets", latencies, per_connection, costs)
    finally:
        process.terminate()
        process.wait(10)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=3, help="unmeasured rounds first (3)")
    parser.add_argument("--db-name", default="kiosk_bench_ws")
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL, help="PostgreSQL URL used to create it")
    parser.add_argument("--redis-url", default=harness.DEFAULT_REDIS_URL)
    parser.add_argument("--check", action="store_true", help="exit 1 when the p99 ratio is above the target")
    args = parser.parse_args()

    env = harness.BenchEnv(
        db_name=args.db_name,
        admin_url=args.admin_url,
        redis_url=args.redis_url,
        cache_prefix="kiosk-bench-ws",
        extra={
            "REALTIME_APP_KEY": BENCH_KEY,
            "REALTIME_APP_SECRET": BENCH_SECRET,
            "REALTIME_APP_ID": BENCH_APP_ID,
            "REALTIME_MAX_CONNECTIONS": str(args.clients + 100),
        },
    )
    harness.create_database(env)
    try:
        harness.setup_django(env)
        harness.clear_redis_prefix(env)
        say(f"{args.clients} clients, {args.rounds} rounds (+{args.warmup} warm-up), one broadcast per round")
        with harness.running_servers(env, 1) as (server,):
            ours = asyncio.run(run_ours(server, args.clients, args.rounds, args.warmup))
        reference = asyncio.run(run_reference(args.clients, args.rounds, args.warmup))
    finally:
        harness.clear_redis_prefix(env)
        harness.drop_database(env)

    say("")
    say(f"{'':<24}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'send ms':>9}{'KiB/conn':>10}")
    for row in (reference, ours):
        say(
            f"{row['name']:<24}{row['p50']:>9.2f}{row['p99']:>9.2f}{row['max']:>9.2f}{row['send']:>9.2f}{row['kib']:>10.1f}"
        )
    ratio = ours["p99"] / reference["p99"]
    say("")
    say(f"p99 ratio ours/reference: {ratio:.2f}x (target <= {TARGET_P99_RATIO:.0f}x)")
    say(f"p50 ratio ours/reference: {ours['p50'] / reference['p50']:.2f}x")
    say("send ms: how long the sender is busy (ours: one group_send to Redis; reference: one frame to the server)")
    return 1 if args.check and ratio > TARGET_P99_RATIO else 0


if __name__ == "__main__":
    os.chdir(harness.ROOT)
    sys.exit(main())
