"""bench/fleet: the whole service under a fleet's load, with one fault at a time.

    .venv/bin/python bench/fleet.py [--kiosks 20] [--ws-kiosks 6] [--agents 4] [--rate 0.5]
                                    [--seconds 40] [--fault none|kill-web|restart-redis|restart-postgres|kill-worker]

The production process set on this machine: two web processes (the Procfile's `web` line), a
Celery worker and beat on a private PostgreSQL cluster and a private redis-server this bench starts (so it
can restart them). A fleet: every kiosk heartbeats over HTTP (and `--ws-kiosks` of them hold a
WebSocket on their own channel), every agent holds a WebSocket on its channel and is available.
Sessions start at `--rate` per second from the WebSocket kiosks; the agent offered one accepts it,
puts a cart (the kiosk hears OrderUpdated), sends it to payment (the kiosk hears PaymentRequested,
pays with the demo processor's good card, hears PaymentSucceeded) and the order's `order.created`
webhook reaches a receiver here. Clients are spread over the two processes; a client whose process
goes away reconnects to the other (what the balancer does).

Printed: start -> agent notified, accept, cart -> kiosk OrderUpdated latencies (p50/p99); events
lost (not heard within EVENT_WAIT seconds; the flow then goes on by polling, as the apps do) or
heard twice; webhooks expected against received. Then, counted on the private servers (bench/
counters.py says how) over the sessions' window (the agents' sign-ins and an idle window of
`--idle-seconds` before it), per completed order, raw and net of the idle window's rate: SQL round
trips and statements, transactions, new PostgreSQL and Redis connections, Redis commands, and CPU
of the whole process tree (web, worker and its pool children, beat, PostgreSQL, Redis); and the
idle window per second. Counts are printed only without a fault.
With `--fault`, the fault comes at half time and what was lost is split into inside and outside
the fault's heal window (HEAL_SECONDS). The reference, in the same run: a bare `websockets` server
holding as many clients, relaying each HTTP request it gets to one of them (bench/reference_apps/
ws_relay.py): start -> notified and cart -> kiosk are also printed as ratios to its latency.
"""

import argparse
import asyncio
import contextlib
import functools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import harness  # noqa: E402
from counters import Counters, CountingPostgres, Snapshot  # noqa: E402
from harness import percentile, say  # noqa: E402
from soak import CHANNEL_SECRET_ENV, signature  # noqa: E402  (channels signed with the bench's app secret)
from webhook_throughput import BeatProcess, WorkerProcess  # noqa: E402

from tests.support.private_servers import PrivateRedis, wait_until  # noqa: E402

PASSWORD = "bench-password-123"
EVENT_WAIT = 10.0  # seconds a client waits for an event before it counts it lost and polls
HEAL_SECONDS = {"none": 0.0, "kill-web": 10.0, "restart-redis": 5.0, "restart-postgres": 10.0, "kill-worker": 10.0}
GOOD_CARD = "4242424242424242"


@dataclass
class Stats:
    notified: list[float] = field(default_factory=list)
    accept: list[float] = field(default_factory=list)
    cart: list[float] = field(default_factory=list)
    lost: list[tuple[str, float]] = field(default_factory=list)  # (event, session start time)
    heard: Counter = field(default_factory=Counter)  # (session, event, channel) -> times heard
    completed: int = 0
    failed: list[str] = field(default_factory=list)
    idle: Snapshot | None = None  # what the idle window cost (agents signed in, kiosks heartbeating)
    idle_seconds: float = 0.0
    window: Snapshot | None = None  # what the sessions' window cost, to the last webhook
    window_seconds: float = 0.0


class Receiver:
    """Webhook deliveries, counted by delivery id and by order."""

    def __init__(self):
        self.deliveries: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                outer.deliveries.append({**json.loads(body), "delivery": self.headers.get("X-Service-Delivery")})
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((harness.LOOPBACK, 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://{harness.LOOPBACK}:{self.server.server_port}/hook"


def make_fleet(kiosks: int, agents: int, hook_url: str) -> dict:
    import uuid

    from django.contrib.auth.hashers import make_password

    from apps.accounts.models import Business, Owner, User
    from apps.billing.models import OwnerBilling
    from apps.demo_processor import services as demo_processor
    from apps.kiosks.services import kiosk_pair, pairing_code_create
    from apps.menu.models import Catalog, Category, MenuItem
    from apps.webhooks import services as webhook_services

    owner = Owner.objects.create(name="Fleet Owner")
    business = Business.objects.create(owner=owner, name="Fleet Burgers", tax_rate_bps=875)
    OwnerBilling.objects.create(owner=owner, account_id="acct_fleet", charges_enabled=True, payouts_enabled=True)
    demo_processor.account_open("acct_fleet")
    category = Category.objects.create(
        catalog=Catalog.objects.create(business=business, is_active=True), name="Burgers"
    )
    item = MenuItem.objects.create(category=category, name="Burger", price_cents=1000)
    webhook_services.subscription_create(owner=owner, url=hook_url, events=["order.created"])
    fleet = {"item": str(item.pk), "kiosks": [], "agents": []}
    for n in range(kiosks):
        _, code = pairing_code_create(business=business)
        device_id = uuid.uuid4()
        kiosk, token = kiosk_pair(code=code, device_id=device_id, device_name=f"Kiosk {n}")
        fleet["kiosks"].append({"id": kiosk.pk, "device_id": str(device_id), "token": token})
    hashed = make_password(PASSWORD)
    for n in range(agents):
        user = User.objects.create(
            email=f"fleet-{n}@example.com", name=f"Agent {n}", password=hashed, is_agent=True, owner=owner
        )
        fleet["agents"].append({"id": user.pk, "email": user.email})
    return fleet


class Endpoints:
    """The web processes' base URLs; a client that cannot reach its own moves to the next one."""

    def __init__(self, servers):
        self.urls = [server.base_url for server in servers]
        self.dead: set[str] = set()

    def pick(self, n: int) -> str:
        alive = [url for url in self.urls if url not in self.dead] or self.urls
        return alive[n % len(alive)]


class Socket:
    """A Pusher-protocol client on one private channel; reconnects (to another process) when closed."""

    def __init__(self, endpoints: Endpoints, n: int, channel: str, on_event):
        self.endpoints, self.n, self.channel, self.on_event = endpoints, n, channel, on_event
        self.task = asyncio.ensure_future(self.run())
        self.sent = 0

    async def run(self) -> None:
        import websockets

        while True:
            base = self.endpoints.pick(self.n).replace("http://", "ws://")
            try:
                async with websockets.connect(f"{base}/app/{CHANNEL_SECRET_ENV['REALTIME_APP_KEY']}?protocol=7") as ws:
                    socket_id = json.loads(json.loads(await ws.recv())["data"])["socket_id"]
                    auth = signature(socket_id, self.channel, None)
                    await ws.send(
                        json.dumps({"event": "pusher:subscribe", "data": {"channel": self.channel, "auth": auth}})
                    )
                    async for raw in ws:
                        message = json.loads(raw)
                        if message.get("event") == "pusher:ping":
                            await ws.send(json.dumps({"event": "pusher:pong", "data": {}}))
                        elif not message.get("event", "").startswith("pusher"):
                            data = json.loads(message["data"])
                            self.on_event(message["event"], data, time.monotonic(), self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                pass
            await asyncio.sleep(0.5)


class Waiters:
    """Futures for (session, event), resolved by the sockets' events."""

    def __init__(self, stats: Stats):
        self.stats = stats
        self.futures: dict[tuple[str, str], asyncio.Future] = {}

    def expect(self, session: str, event: str) -> asyncio.Future:
        return self.futures.setdefault((session, event), asyncio.get_running_loop().create_future())

    def heard(self, session: str, event: str, at: float, channel: str) -> None:
        self.stats.heard[(session, event, channel)] += 1
        future = self.expect(session, event)
        if not future.done():
            future.set_result(at)

    async def wait(self, session: str, event: str, started: float) -> float | None:
        try:
            return await asyncio.wait_for(asyncio.shield(self.expect(session, event)), EVENT_WAIT)
        except TimeoutError:
            self.stats.lost.append((event, started))
            return None


def http(endpoints: Endpoints, n: int, session: requests.Session, method: str, path: str, **kwargs):
    """One request, moving to the other process when this one's connection fails."""
    for attempt in range(3):
        base = endpoints.pick(n + attempt)
        try:
            return session.request(method, base + path, timeout=30, **kwargs)
        except requests.ConnectionError:
            continue
    raise RuntimeError(f"{method} {path}: no web process answered")


async def run_fleet(
    args, fleet: dict, endpoints: Endpoints, fault, counters: Counters, receiver: Receiver
) -> tuple[Stats, float]:
    stats = Stats()
    waiters = Waiters(stats)
    loop = asyncio.get_running_loop()
    # Every flow's blocking HTTP call runs on a thread (asyncio.to_thread): enough of them that
    # no call queues here (the default pool has min(32, cores + 4)).
    loop.set_default_executor(ThreadPoolExecutor(max_workers=max(32, 4 * args.ws_kiosks)))
    agents: list[requests.Session] = []
    offers: dict[str, list[int]] = {}  # session -> the agents offered it, in order
    for n, agent in enumerate(fleet["agents"]):
        client = requests.Session()
        await asyncio.to_thread(http, endpoints, n, client, "GET", "/api/csrf-cookie")
        token = client.cookies["XSRF-TOKEN"]
        client.headers["X-XSRF-TOKEN"] = token
        body = {"email": agent["email"], "password": PASSWORD, "remember": False}
        signed = await asyncio.to_thread(http, endpoints, n, client, "POST", "/api/login", json=body)
        assert signed.status_code == 200, signed.text
        client.headers["X-XSRF-TOKEN"] = client.cookies["XSRF-TOKEN"]
        status = await asyncio.to_thread(
            http, endpoints, n, client, "POST", "/api/agent/status", json={"status": "available"}
        )
        assert status.status_code == 200, status.text
        agents.append(client)

        def on_agent_event(event, data, at, channel, n=n):
            if event == "SessionIncoming":
                offers.setdefault(data["session"]["id"], []).append(n)
                waiters.heard(data["session"]["id"], "notified", at, channel)

        Socket(endpoints, n, f"private-agent.{agent['id']}", on_agent_event)
    kiosks = []
    for n, kiosk in enumerate(fleet["kiosks"]):
        client = requests.Session()
        client.headers.update({"X-Device-Id": kiosk["device_id"], "X-Device-Token": kiosk["token"]})
        kiosks.append(client)
        if n < args.ws_kiosks:

            def on_kiosk_event(event, data, at, channel):
                session = data.get("session_id") or (data.get("session") or {}).get("id", "")
                waiters.heard(session, event, at, channel)

            Socket(endpoints, n, f"private-kiosk.{kiosk['id']}", on_kiosk_event)
    await asyncio.sleep(3)  # every socket subscribed

    # Heartbeats go out evenly over their interval, on threads of their own: a flow's request
    # must never wait in this process behind a thousand kiosks' heartbeats (that would be
    # measured as the service's latency).
    heartbeat_threads = ThreadPoolExecutor(max_workers=16, thread_name_prefix="heartbeat")

    async def heartbeats():
        while True:
            for n, client in enumerate(kiosks):
                beat = functools.partial(http, endpoints, n, client, "POST", "/api/public/kiosks/heartbeat", json={})
                loop.run_in_executor(heartbeat_threads, beat)
                await asyncio.sleep(args.heartbeat / len(kiosks))

    busy: set[int] = set()

    async def one_session(n: int) -> None:
        busy.add(n)
        try:
            await serve_one(n)
        finally:
            session = session_of.get(n)
            if n in agent_of:  # done, or cut short: end it so the kiosk can start the next one
                body = {"reason": "completed", "notes": ""}
                index = agent_of.pop(n)
                await until_answered(index, agents[index], f"/api/sessions/{session}/end", json=body)
            if n in unfinished:
                await until_answered(n, kiosks[n], f"/api/public/sessions/{session}/cancel")
            busy.discard(n)

    async def until_answered(n: int, client: requests.Session, path: str, **kwargs) -> None:
        """POST `path` until the service answers it (not 5xx), for up to 20 s: during a fault the
        apps retry too, and a session left open would refuse the kiosk's next start (409)."""
        for _ in range(20):
            with contextlib.suppress(RuntimeError):
                if (await asyncio.to_thread(http, endpoints, n, client, "POST", path, **kwargs)).status_code < 500:
                    return
            await asyncio.sleep(1)

    session_of: dict[int, str] = {}
    agent_of: dict[int, int] = {}
    unfinished: set[int] = set()

    async def serve_one(n: int) -> None:
        client, device = kiosks[n], fleet["kiosks"][n]["device_id"]
        started = time.monotonic()
        body = {"device_id": device, "customer_locale": "en-US"}
        response = await asyncio.to_thread(http, endpoints, n, client, "POST", "/api/public/sessions/start", json=body)
        if response.status_code != 201:
            stats.failed.append(f"start {response.status_code}")
            return
        session = response.json()["session_id"]
        session_of[n] = session
        unfinished.add(n)
        at = await waiters.wait(session, "notified", started)
        if at is not None:
            stats.notified.append(at - started)
        agent = None
        for index in offers.get(session) or [n % len(agents)]:  # unheard: as the polling agent would
            began = time.monotonic()
            path = f"/api/sessions/{session}/accept"
            accepted = await asyncio.to_thread(http, endpoints, index, agents[index], "POST", path)
            stats.accept.append(time.monotonic() - began)
            if accepted.status_code == 200:
                agent = agent_of[n] = index
                break
        if agent is None:
            stats.failed.append("not accepted")
            return
        lines = [{"menu_item_id": fleet["item"], "quantity": 1}]
        cart_at = time.monotonic()
        ordered = await asyncio.to_thread(
            http, endpoints, agent, agents[agent], "POST", "/api/orders", json={"session_id": session, "lines": lines}
        )
        if ordered.status_code not in (200, 201):
            stats.failed.append(f"cart {ordered.status_code} {ordered.text[:120]}")
            return
        if (heard := await waiters.wait(session, "OrderUpdated", started)) is not None:
            stats.cart.append(heard - cart_at)
        paid = await asyncio.to_thread(
            http, endpoints, agent, agents[agent], "POST", f"/api/sessions/{session}/payment"
        )
        if paid.status_code != 200:
            stats.failed.append(f"payment {paid.status_code}")
            return
        await waiters.wait(session, "PaymentRequested", started)
        intent = paid.json()
        payment = await asyncio.to_thread(http, endpoints, n, client, "GET", f"/api/public/sessions/{session}/payment")
        details = payment.json() if payment.ok else intent
        confirm_url = (details.get("processor") or {}).get("confirm_url")
        if confirm_url:
            body = {"client_secret": details.get("client_secret"), "card_number": GOOD_CARD}
            await asyncio.to_thread(http, endpoints, n, client, "POST", confirm_url, json=body)
        unfinished.discard(n)
        if await waiters.wait(session, "PaymentSucceeded", started) is not None:
            stats.completed += 1
        else:
            status = await asyncio.to_thread(
                http, endpoints, n, client, "GET", f"/api/public/sessions/{session}/status"
            )
            stats.completed += status.ok and status.json().get("status") in ("completed", "paid")

    beating = loop.create_task(heartbeats())
    # The idle window: agents signed in, sockets open, kiosks heartbeating, nothing waiting.
    idle_from, idle_began = await asyncio.to_thread(counters.snapshot), time.monotonic()
    await asyncio.sleep(args.idle_seconds)
    idle_to = await asyncio.to_thread(counters.snapshot)
    stats.idle, stats.idle_seconds = idle_to - idle_from, time.monotonic() - idle_began
    window_from = idle_to
    sessions, began = [], time.monotonic()
    fault_at = began + args.seconds / 2 if fault else None
    n = 0
    while time.monotonic() - began < args.seconds:
        if fault_at is not None and time.monotonic() >= fault_at:
            await asyncio.to_thread(fault)
            fault_at = None
        free = [k for k in range(args.ws_kiosks) if k not in busy]
        if free:
            sessions.append(loop.create_task(one_session(free[n % len(free)])))
        else:
            stats.failed.append("no free kiosk")
        n += 1
        await asyncio.sleep(1 / args.rate)
    await asyncio.gather(*sessions, return_exceptions=True)
    # The window ends once the completed orders' webhooks arrived (or 15 s passed).
    with contextlib.suppress(TimeoutError):
        await asyncio.to_thread(
            wait_until, lambda: len(receiver.deliveries) >= stats.completed, 15, "the orders' webhooks", 0.05
        )
    if args.fault == "none":  # a restarted server's counters start again
        stats.window = await asyncio.to_thread(counters.snapshot) - window_from
        stats.window_seconds = time.monotonic() - began
    beating.cancel()
    return stats, began


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kiosks", type=int, default=20)
    parser.add_argument("--ws-kiosks", type=int, default=6)
    parser.add_argument("--agents", type=int, default=4)
    parser.add_argument("--rate", type=float, default=0.5, help="sessions started per second")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--heartbeat", type=float, default=15, help="seconds between a kiosk's heartbeats")
    parser.add_argument("--fault", choices=sorted(HEAL_SECONDS), default="none")
    parser.add_argument("--idle-seconds", type=float, default=10, help="the idle window before the sessions")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="kiosk-fleet-"))  # not under a 0700 folder: postgres reaches it
    postgres, redis = CountingPostgres(workdir), PrivateRedis()
    postgres.create()
    redis.start()
    receiver = Receiver()
    env = harness.BenchEnv(
        db_name="kiosk_bench_fleet",
        admin_url=postgres.url,
        redis_url=redis.url,
        cache_prefix="kiosk-fleet",
        extra={
            **CHANNEL_SECRET_ENV,
            "SESSION_COOKIE_SECURE": "false",
            "THROTTLE_KIOSK": "1000000/s",
            "THROTTLE_AGENT": "1000000/s",
            "WEBHOOK_ALLOW_PRIVATE_TARGETS": "true",
            "WORKER_QUEUE": "celery",  # the default queue, on this run's own Redis
            "LOG_LEVEL": "WARNING",
        },
    )
    harness.create_database(env)
    worker = beat = counters = None
    try:
        harness.setup_django(env)
        from django.db import connections

        fleet = make_fleet(args.kiosks, args.agents, receiver.url)
        connections.close_all()
        with harness.running_servers(env, 2) as servers:
            worker, beat = WorkerProcess(env, concurrency=2), BeatProcess(env, workdir)
            endpoints = Endpoints(servers)
            counters = Counters(postgres, redis.url, env.db_name)
            pids = [s.process.pid for s in servers] + [worker.process.pid, beat.process.pid]
            counters.roots = [*pids, postgres.postmaster_pid(), redis.process.pid]

            def fault() -> None:
                nonlocal worker
                say(f"-- fault: {args.fault}")
                if args.fault == "kill-web":
                    os.kill(servers[1].process.pid, signal.SIGKILL)
                    endpoints.dead.add(servers[1].base_url)
                elif args.fault == "restart-redis":
                    redis.stop()
                    time.sleep(0.5)
                    redis.start()
                elif args.fault == "restart-postgres":
                    postgres.stop()  # fast shutdown: every connection is cut
                    time.sleep(0.5)
                    postgres.start()
                elif args.fault == "kill-worker":
                    os.killpg(worker.process.pid, signal.SIGKILL)
                    time.sleep(1)
                    worker = WorkerProcess(env, concurrency=2)
                    counters.roots.append(worker.process.pid)

            stats, began = asyncio.run(
                run_fleet(args, fleet, endpoints, fault if args.fault != "none" else None, counters, receiver)
            )
        reference = asyncio.run(relay_reference(args.ws_kiosks + args.agents, args.rate, args.seconds / 2))
        report(args, stats, began, receiver, reference)
    finally:
        if counters is not None:
            counters.close()
        for process in (worker, beat):
            if process is not None:
                process.stop()
        redis.stop()
        postgres.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    return 0


async def relay_reference(clients: int, rate: float, seconds: float) -> list[float]:
    """Request in, message out on a bare `websockets` server (bench/reference_apps/ws_relay.py)."""
    import websockets

    port = harness.free_port()
    relay = subprocess.Popen(
        [sys.executable, str(harness.ROOT / "bench" / "reference_apps" / "ws_relay.py"), str(port)]
    )
    try:
        heard: dict[str, float] = {}
        deadline = time.monotonic() + 60
        while True:  # the relay is up once it takes a connection
            try:
                sockets = [await websockets.connect(f"ws://{harness.LOOPBACK}:{port}/?id=0")]
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.2)
        sockets += [await websockets.connect(f"ws://{harness.LOOPBACK}:{port}/?id={n}") for n in range(1, clients)]

        async def listen(ws):
            async for raw in ws:
                heard[raw] = time.monotonic()

        listeners = [asyncio.ensure_future(listen(ws)) for ws in sockets]
        latencies, sent = [], {}
        for n in range(max(10, int(rate * seconds))):
            key = f"m{n}"
            sent[key] = time.monotonic()
            url = f"http://{harness.LOOPBACK}:{port}/relay?to={n % clients}&message={key}"
            await asyncio.to_thread(requests.post, url, timeout=10)
            await asyncio.sleep(max(0.01, 1 / rate / 10))
        await asyncio.sleep(1)
        latencies = [heard[key] - at for key, at in sent.items() if key in heard]
        for task in listeners:
            task.cancel()
        for ws in sockets:
            await ws.close()
        return latencies
    finally:
        relay.terminate()
        relay.wait(10)


def report(args, stats: Stats, began: float, receiver: Receiver, reference: list[float]) -> None:
    heal = HEAL_SECONDS[args.fault]
    fault_at = began + args.seconds / 2
    outside = [
        e for e, at in stats.lost if args.fault == "none" or not (fault_at - EVENT_WAIT <= at <= fault_at + heal)
    ]
    once = {"notified", "OrderUpdated", "PaymentRequested", "PaymentSucceeded"}  # per session and recipient
    twice = sorted({event for (_, event, _), times in stats.heard.items() if times > 1 and event in once})
    orders = {d.get("data", {}).get("id") or d.get("data", {}).get("order_number") for d in receiver.deliveries}
    ids = Counter(d["delivery"] for d in receiver.deliveries)
    say(f"\nfleet: {args.kiosks} kiosks ({args.ws_kiosks} on WebSockets), {args.agents} agents, {args.rate}/s for")
    say(f"{args.seconds:.0f} s, two web processes + a worker, PostgreSQL + Redis; fault: {args.fault}")
    ref50, ref99 = (percentile(reference, 50), percentile(reference, 99)) if reference else (float("nan"),) * 2
    say(f"{'':<28}{'n':>5}{'p50 ms':>10}{'p99 ms':>10}{'p99 / reference':>18}")
    for name, values, ratio in (
        ("start -> agent notified", stats.notified, True),
        ("accept (HTTP)", stats.accept, False),
        ("cart -> kiosk OrderUpdated", stats.cart, True),
        ("reference: request -> message", reference, False),
    ):
        if not values:
            say(f"{name:<28}{0:>5}")
            continue
        p50, p99 = percentile(values, 50) * 1000, percentile(values, 99) * 1000
        versus = f"{p99 / (ref99 * 1000):>17.1f}x" if ratio else ""
        say(f"{name:<28}{len(values):>5}{p50:>10.1f}{p99:>10.1f}{versus}")
    kinds = dict(Counter(e for e, _ in stats.lost))
    say(f"events lost: {len(stats.lost)} {kinds}; outside the heal window ({heal:.0f} s): {len(outside)}")
    say(f"events heard more than once: {twice or 'none'}")
    say(f"orders completed: {stats.completed}; flows that failed: {Counter(stats.failed) or 'none'}")
    say(
        f"webhooks: {stats.completed} order.created expected, {len(orders - {None})} orders received, "
        f"{sum(ids.values())} deliveries ({sum(1 for v in ids.values() if v > 1)} delivery ids repeated)"
    )
    say(f"reference p50 {ref50 * 1000:.1f} ms")
    report_counts(stats)


COUNTED = (
    ("SQL round trips", "round_trips", "{:.0f}"),
    ("  of which statements", "statements", "{:.0f}"),
    ("SQL transactions", "transactions", "{:.0f}"),
    ("new PostgreSQL connections", "db_sessions", "{:.1f}"),
    ("Redis commands", "redis_commands", "{:.0f}"),
    ("new Redis connections", "redis_connections", "{:.1f}"),
    ("CPU ms (process tree)", "cpu", "{:.0f}"),
)


def report_counts(stats: Stats) -> None:
    """Per completed order over the sessions' window (sign-ins and the idle window outside it),
    also net of what the same seconds cost idle; and the idle window per second (bench/counters.py
    says how each is counted)."""
    if stats.window is None or stats.idle is None:
        say("counts: only without a fault (a restarted server starts its counters again)")
        return
    orders = max(1, stats.completed)
    say(
        f"\ncounted, sessions' window {stats.window_seconds:.0f} s ({stats.completed} orders), "
        f"idle window {stats.idle_seconds:.0f} s before it:"
    )
    say(f"{'':<30}{'per order':>12}{'net of idle':>14}{'idle per s':>12}")
    for name, attribute, form in COUNTED:
        scale = 1000 if attribute == "cpu" else 1
        window, idle = getattr(stats.window, attribute) * scale, getattr(stats.idle, attribute) * scale
        idle_rate = idle / max(stats.idle_seconds, 1e-9)
        net = (window - idle_rate * stats.window_seconds) / orders
        say(f"{name:<30}{form.format(window / orders):>12}{form.format(net):>14}{idle_rate:>12.1f}")
    top = stats.window.by_command.most_common(10)
    say("Redis commands per order: " + ", ".join(f"{name} {calls / orders:.1f}" for name, calls in top))
    if stats.window.evicted or stats.idle.evicted:
        say("pg_stat_statements evicted entries: the SQL counts above are short")


if __name__ == "__main__":
    sys.exit(main())
