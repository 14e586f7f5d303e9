"""10,000 kiosks join one owner's presence channel across two web processes.

    .venv/bin/python bench/presence_join.py [--kiosks 10000] [--redis-url redis://127.0.0.1:6379/1]

Two web processes (the Procfile's `web` line on loopback) share Redis, as behind a balancer. Half
the kiosks connect to each and join `presence-owner.1` as quiet members (what the auth endpoint
signs for a kiosk), 200 at a time; one panel user (a listening member) is connected to the first
process. Printed: the time for every kiosk to join (each subscription answered), the join rate,
the time until the member list read through the Pusher HTTP API is complete on both processes,
and how many member_added the panel received (one per kiosk). Before kiosks were quiet members,
each join sent the whole member list to the joiner and member_added to every kiosk: the cost grew
with the square of the members, and 450 kiosks on one process timed out handshakes.
"""

import argparse
import asyncio
import hashlib
import hmac
import json
import os
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import LOOPBACK, _spawn, _stop_server, _wait_ready, free_port, procfile_web_argv, say  # noqa: E402

KEY, SECRET, APP_ID = "join-key", "join-secret", "1"
CHANNEL = "presence-owner.1"
BATCH = 200


def signed(socket_id: str, channel_data: str) -> str:
    digest = hmac.new(SECRET.encode(), f"{socket_id}:{CHANNEL}:{channel_data}".encode(), hashlib.sha256)
    return f"{KEY}:{digest.hexdigest()}"


async def join(port: int, user_id: str, quiet: bool):
    import websockets

    ws = await websockets.connect(f"ws://{LOOPBACK}:{port}/app/{KEY}?protocol=7", open_timeout=60, max_queue=None)
    established = json.loads(await ws.recv())
    socket_id = json.loads(established["data"])["socket_id"]
    member = {"user_id": user_id, "user_info": {"id": user_id}, **({"quiet": True} if quiet else {})}
    channel_data = json.dumps(member)
    data = {"channel": CHANNEL, "auth": signed(socket_id, channel_data), "channel_data": channel_data}
    await ws.send(json.dumps({"event": "pusher:subscribe", "data": data}))
    while True:
        reply = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if reply["event"] == "pusher_internal:subscription_succeeded":
            return ws
        if reply["event"] == "pusher:error":
            raise SystemExit(f"{user_id}: {reply}")


def users_on(port: int) -> int:
    path = f"/apps/{APP_ID}/channels/{CHANNEL}/users"
    query = f"auth_key={KEY}&auth_timestamp={int(time.time())}&auth_version=1.0"
    signature = hmac.new(SECRET.encode(), f"GET\n{path}\n{query}".encode(), hashlib.sha256).hexdigest()
    with urllib.request.urlopen(f"http://{LOOPBACK}:{port}{path}?{query}&auth_signature={signature}", timeout=30) as r:
        return len(json.loads(r.read())["users"])


async def run(ports: list[int], kiosks: int) -> None:
    panel = await join(ports[0], "user.1", quiet=False)
    added = 0

    async def count_added():
        nonlocal added
        async for raw in panel:
            if json.loads(raw)["event"] == "pusher_internal:member_added":
                added += 1

    counter = asyncio.create_task(count_added())
    sockets = []
    started = time.monotonic()
    for first in range(0, kiosks, BATCH):
        batch = range(first, min(kiosks, first + BATCH))
        sockets += await asyncio.gather(*(join(ports[i % 2], f"kiosk.{i}", quiet=True) for i in batch))
        if (first // BATCH) % 10 == 9:
            say(f"  {len(sockets):>6} joined  {time.monotonic() - started:6.1f} s")
    joined = time.monotonic() - started
    say(f"all {kiosks} kiosks joined in {joined:.1f} s ({kiosks / joined:.0f} joins/s)")
    while True:
        counts = [await asyncio.to_thread(users_on, port) for port in ports]
        if all(count == kiosks + 1 for count in counts) or time.monotonic() - started > joined + 60:
            break
        await asyncio.sleep(0.2)
    listed = time.monotonic() - started
    say(f"member list complete on both processes ({counts}) {listed:.1f} s after the first join")
    deadline = time.monotonic() + 30
    while added < kiosks and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    say(f"the panel received {added} member_added (expected {kiosks})")
    counter.cancel()
    for first in range(0, len(sockets), 500):
        await asyncio.gather(*(ws.close() for ws in sockets[first : first + 500]), return_exceptions=True)
    await panel.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kiosks", type=int, default=10_000)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/1")
    args = parser.parse_args()
    for name in ("DATABASE_URL", "REDIS_URL", "APP_ENV"):
        os.environ.pop(name, None)
    work = Path(tempfile.mkdtemp(prefix="kiosk-join-"))
    prefix = f"kiosk-join{os.getpid()}"
    variables = {
        "APP_ENV": "local",
        "VAR_DIR": str(work),
        "REDIS_URL": args.redis_url,
        "CACHE_KEY_PREFIX": prefix,
        "REALTIME_APP_ID": APP_ID,
        "REALTIME_APP_KEY": KEY,
        "REALTIME_APP_SECRET": SECRET,
        "REALTIME_MAX_CONNECTIONS_PER_ADDRESS": str(args.kiosks + 10),
        "TASK_MODE": "sync",
    }
    servers = []
    try:
        for _ in range(2):
            port = free_port()
            servers.append(_spawn(procfile_web_argv(port), {**variables, "PORT": str(port)}, port, work))
        for server in servers:
            _wait_ready(server)
        asyncio.run(run([server.port for server in servers], args.kiosks))
    finally:
        for server in servers:
            _stop_server(server)
        import redis

        client = redis.Redis.from_url(args.redis_url)
        for key in client.scan_iter(f"{prefix}:*", count=1000):
            client.delete(key)
        client.close()


if __name__ == "__main__":
    main()
