"""One client process of bench/ws_fanout.py: holds a share of the WebSocket clients.

    ws_clients.py pusher|reference URL FIRST COUNT   (driven over stdin/stdout, one JSON line each)

Opens COUNT clients (Pusher: each subscribed to `private-agent.{i}`, signed as /broadcasting/auth
signs, with the key and secret from BENCH_KEY/BENCH_SECRET), prints {"ready": COUNT}, then
answers commands:
  {"collect": R, "started": T}  wait until every client read round R's event; print the
                                latencies in ms from T (time.perf_counter: CLOCK_MONOTONIC,
                                one clock for every process on the machine)
  {"quit": true}                close the clients and exit
Each client reads all the time, answers pusher:ping as pusher-js does, and notes when each
round's event arrived. Several of these processes let one 2-core machine drive 10,000 clients.
"""

import asyncio
import contextlib
import json
import os
import resource
import sys
import time
from pathlib import Path

import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from apps.realtime.signing import channel_auth  # noqa: E402  (needs no settings with key and secret)

PING = '{"event":"pusher:ping"'
PONG = '{"event":"pusher:pong","data":{}}'


class Clients:
    def __init__(self, kind: str, url: str, first: int, count: int):
        self.kind, self.url, self.first, self.count = kind, url, first, count
        self.arrivals: dict[int, list[float]] = {}
        self.complete: dict[int, asyncio.Event] = {}
        self.sockets: list = []
        self.readers: list[asyncio.Task] = []
        self.retries = 0

    async def open_all(self) -> None:
        limit = asyncio.Semaphore(16)

        async def one(index: int):
            async with limit:
                for attempt in range(6):
                    try:
                        return await (self.open_pusher(index) if self.kind == "pusher" else self.open_reference())
                    except (OSError, websockets.InvalidHandshake, websockets.ConnectionClosed, TimeoutError):
                        if attempt == 5:
                            raise
                        self.retries += 1  # pusher-js would reconnect too
                        await asyncio.sleep(1 + attempt)

        self.sockets = await asyncio.gather(*(one(self.first + i) for i in range(self.count)))
        self.readers = [asyncio.create_task(self.read(ws)) for ws in self.sockets]

    async def open_pusher(self, index: int):
        ws = await websockets.connect(self.url, max_queue=None, open_timeout=60, ping_interval=None)
        socket_id = json.loads(json.loads(await ws.recv())["data"])["socket_id"]
        channel = f"private-agent.{index}"
        auth = channel_auth(socket_id, channel, key=os.environ["BENCH_KEY"], secret=os.environ["BENCH_SECRET"])
        await ws.send(json.dumps({"event": "pusher:subscribe", "data": {"channel": channel, "auth": auth}}))
        reply = json.loads(await ws.recv())
        assert reply["event"] == "pusher_internal:subscription_succeeded", reply
        return ws

    async def open_reference(self):
        ws = await websockets.connect(self.url, max_queue=None, open_timeout=60, ping_interval=None)
        await ws.send("subscribe")
        assert await ws.recv() == "subscribed"
        return ws

    async def read(self, ws) -> None:
        try:
            async for message in ws:
                now = time.perf_counter()
                if message.startswith(PING):
                    await ws.send(PONG)
                    continue
                frame = json.loads(message)
                if frame.get("event") != "BenchEvent":
                    print(json.dumps({"unexpected": message[:200]}), file=sys.stderr, flush=True)
                    continue
                data = json.loads(frame["data"]) if isinstance(frame.get("data"), str) else frame
                number = data["round"]
                arrived = self.arrivals.setdefault(number, [])
                arrived.append(now)
                if len(arrived) == self.count:
                    self.done(number).set()
        except websockets.ConnectionClosed:
            pass

    def done(self, number: int) -> asyncio.Event:
        return self.complete.setdefault(number, asyncio.Event())

    async def collect(self, number: int, started: float) -> dict:
        with contextlib.suppress(TimeoutError):  # a lost event: reported as missing
            await asyncio.wait_for(self.done(number).wait(), 60)
        arrived = self.arrivals.pop(number, [])
        self.complete.pop(number, None)
        return {
            "round": number,
            "missing": self.count - len(arrived),
            "ms": [round((t - started) * 1000, 3) for t in arrived],
        }

    async def close_all(self) -> None:
        await asyncio.gather(*(ws.close() for ws in self.sockets), return_exceptions=True)


async def main() -> None:
    kind, url, first, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    clients = Clients(kind, url, first, count)
    await clients.open_all()
    print(json.dumps({"ready": count, "retries": clients.retries}), flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line := await reader.readline():
        command = json.loads(line)
        if "quit" in command:
            break
        print(json.dumps(await clients.collect(command["collect"], command["started"])), flush=True)
    await clients.close_all()


if __name__ == "__main__":
    asyncio.run(main())
