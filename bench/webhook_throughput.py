"""Webhook delivery throughput through a real Celery worker, against a plain requests loop, in one run.

Starts the production stack on loopback: a throwaway PostgreSQL database, Redis as the broker,
one Celery worker started as the Procfile's `worker` line (prefork, WORKER_CONCURRENCY
processes, default 4) on a queue of its own (it sends each subscription's due deliveries in
batches, one `webhooks.drain` task per batch), and a fast HTTP receiver in a separate process
(keep-alive, answers 200 at once, records when each request arrived). Then:

  reference  a `requests.Session().post` loop: N bodies of the same size, one after the other
  drain      N events committed through `events.emit` (one transaction each, as services do)
             while no worker runs; then the worker is started and delivers them all (claim a
             batch, signed POSTs on one connection, attempt logs and outcomes). deliveries/s =
             arrivals at the receiver from the first to the last, so the producer's speed does
             not count
  paced      M events committed at a steady rate (a share of the drain rate, or --paced-rate;
             one producer thread, so a high rate may not be reached) with the worker
             running: event-to-delivery latency, from the event's commit to its arrival

Prints deliveries/s, the latency p50/p99 and the ratio drain/reference; the target is >= 50 %.

    .venv/bin/python bench/webhook_throughput.py [--events 2000] [--concurrency 4]

Uses Redis DB 4 and a per-run queue and cache prefix, so nothing else on the broker is touched.
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import harness
from harness import say

TARGET_RATIO = 0.50
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/4"


# ----------------------------------------------------------------------------- receiver


def serve_receiver(port_file: str) -> None:
    """The receiver process: answer every POST 200 at once, remember when it arrived;
    GET /stats hands over (and clears) what was recorded."""
    arrivals: list[tuple[str, float]] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a production receiver would
        disable_nagle_algorithm = True
        wbufsize = 1 << 16  # status, headers and body leave in one write (flushed per request)

        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            now = time.time()
            with lock:
                arrivals.append((self.headers.get("X-Service-Delivery", "ref"), now))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def do_GET(self):
            with lock:
                body = json.dumps(arrivals).encode()
                arrivals.clear()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer((harness.LOOPBACK, 0), Handler)
    server.daemon_threads = True
    Path(port_file).write_text(str(server.server_address[1]))
    server.serve_forever()


class ReceiverProcess:
    def __init__(self):
        port_file = tempfile.mktemp(prefix="wh-receiver-")
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve-receiver", port_file], cwd=harness.ROOT, start_new_session=True
        )
        deadline = time.monotonic() + 10
        while not (os.path.exists(port_file) and Path(port_file).read_text()):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise SystemExit("the receiver did not start")
            time.sleep(0.05)
        self.port = int(Path(port_file).read_text())
        os.unlink(port_file)
        self.url = f"http://{harness.LOOPBACK}:{self.port}/hooks"

    def stats(self) -> list[tuple[str, float]]:
        import requests

        return requests.get(self.url, timeout=30).json()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


# ----------------------------------------------------------------------------- worker


class ProcfileProcess:
    """A Procfile line (`worker`, `beat`) as its own process group, logging to a temporary file."""

    def __init__(self, env: harness.BenchEnv, name: str, replace: dict[str, str], extra_args=()):
        line = next(row for row in (harness.ROOT / "Procfile").read_text().splitlines() if row.startswith(f"{name}:"))
        command = line.partition(":")[2].strip()
        for old, new in replace.items():
            command = command.replace(old, new)
        argv = [*command.split(), *extra_args]
        argv[0] = str(harness.VENV_BIN / argv[0])
        self.name = name
        self.log = Path(tempfile.mkstemp(prefix=f"bench-{name}-", suffix=".log")[1])
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                argv,
                cwd=harness.ROOT,
                env={**os.environ, **env.variables()},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        say(f"started {name} (pid {self.process.pid}): {' '.join(argv)}")

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        say(f"stopped the {self.name}; its log is {self.log}")


class WorkerProcess(ProcfileProcess):
    """The Procfile's `worker` line, on this run's queue."""

    def __init__(self, env: harness.BenchEnv, concurrency: int, log_level: str = "WARNING", extra_args=()):
        queue = env.extra["WORKER_QUEUE"]
        own_queue = ["-Q", queue, "-n", f"{queue}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"]
        replace = {"${WORKER_CONCURRENCY:-4}": str(concurrency), "--loglevel=INFO": f"--loglevel={log_level}"}
        super().__init__(env, "worker", replace, [*own_queue, *extra_args])


class BeatProcess(ProcfileProcess):
    """The Procfile's `beat` line (the periodic sweeps and the routing tick), its schedule file in `workdir`."""

    def __init__(self, env: harness.BenchEnv, workdir: Path, log_level: str = "WARNING"):
        replace = {
            "${BEAT_SCHEDULE_FILE:-var/celerybeat-schedule}": str(workdir / "celerybeat-schedule"),
            "--loglevel=INFO": f"--loglevel={log_level}",
        }
        super().__init__(env, "beat", replace)


def remove_queue(queue: str) -> None:
    from config.celery import app

    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        for key in list(client.scan_iter(f"{queue}*")) + list(client.scan_iter(f"_kombu.binding*{queue}*")):
            client.delete(key)


# ----------------------------------------------------------------------------- runs


def run_reference(url: str, body: bytes, count: int) -> float:
    """Seconds for `count` sequential POSTs on one keep-alive requests.Session."""
    import requests

    session = requests.Session()
    headers = {"Content-Type": "application/json"}
    for _ in range(20):
        session.post(url, data=body, headers=headers, timeout=5).raise_for_status()
    started = time.perf_counter()
    for _ in range(count):
        session.post(url, data=body, headers=headers, timeout=5).raise_for_status()
    return time.perf_counter() - started


def emit_events(kiosk, count: int, producers: int = 1, rate: float | None = None) -> dict[int, float]:
    """Commit `count` `kiosk.offline` events of `kiosk`, one transaction each, from `producers`
    threads (as several web processes would), or paced at `rate` per second from one; returns
    event id -> commit time."""
    from django.db import connection, transaction
    from django.utils import timezone

    from apps.core import events
    from apps.kiosks.domain_events import KioskWentOffline

    committed: dict[int, float] = {}
    lock = threading.Lock()

    def produce(numbers: range, interval: float) -> None:
        try:
            next_at = time.monotonic()
            for _ in numbers:
                if interval:
                    next_at += interval
                    time.sleep(max(0.0, next_at - time.monotonic()))
                with transaction.atomic():
                    now = timezone.now()
                    event = events.emit(KioskWentOffline(kiosk=kiosk, at=now, last_seen_at=now))
                with lock:
                    committed[event.pk] = time.time()
        finally:
            connection.close()

    if rate:
        produce(range(count), 1 / rate)
        return committed
    threads = [
        threading.Thread(target=produce, args=(range(start, count, producers), 0.0)) for start in range(producers)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return committed


def payload(n: int) -> dict:
    """The reference's body: the size of a `kiosk.offline` payload."""
    at = "2026-01-01T00:00:00Z"
    return {"kiosk_id": n, "kiosk_name": f"Kiosk {n}", "location": "Front door", "offline_at": at, "last_seen_at": at}


SWEEPS = {"runs": 0, "resent": 0}


def wait_delivered(event_ids, timeout: float) -> None:
    """Wait until every delivery of `event_ids` succeeded, running the due-dispatch sweep every
    15 s as beat does in production (it picks up tasks lost to a failed worker connection)."""
    from apps.webhooks.models import WebhookDelivery
    from apps.webhooks.tasks import dispatch_due_webhooks

    deadline = time.monotonic() + timeout
    next_sweep = time.monotonic() + 15
    while True:
        left = WebhookDelivery.objects.filter(event_id__in=event_ids).exclude(status="succeeded").count()
        if not left:
            return
        if time.monotonic() > deadline:
            raise SystemExit(f"{left} deliveries still not succeeded after {timeout:.0f} s")
        if time.monotonic() >= next_sweep:
            SWEEPS["runs"] += 1
            SWEEPS["resent"] += dispatch_due_webhooks()
            next_sweep += 15
        time.sleep(0.05)


def wait_queue_empty(queue: str, timeout: float) -> float:
    """Seconds until the worker's queue in Redis is empty."""
    from config.celery import app

    started = time.monotonic()
    with app.connection_for_write() as conn:
        client = conn.default_channel.client
        while client.llen(queue):
            if time.monotonic() - started > timeout:
                raise SystemExit(f"the queue {queue} did not drain in {timeout:.0f} s")
            time.sleep(0.05)
    return time.monotonic() - started


class Measured:
    def __init__(self, rate: float, latencies_ms: list[float], sent: int, received: int):
        self.rate, self.latencies_ms, self.sent, self.received = rate, latencies_ms, sent, received

    def p(self, pct: float) -> float:
        return harness.percentile(self.latencies_ms, pct)


def wait_for(committed: dict[int, float]) -> dict[int, float]:
    wait_delivered(committed.keys(), timeout=600)
    return committed


def measure(receiver: "ReceiverProcess", committed: dict[int, float], from_first_arrival: bool = False) -> Measured:
    """Deliveries/s (from the first commit, or the first arrival, to the last arrival) and the
    commit-to-arrival latency of each event."""
    from apps.webhooks.models import WebhookAttempt, WebhookDelivery

    arrivals = receiver.stats()
    delivery_event = dict(WebhookDelivery.objects.filter(event_id__in=committed).values_list("pk", "event_id"))
    first_arrival: dict[int, float] = {}
    for delivery_id, arrived in arrivals:
        first_arrival.setdefault(int(delivery_id), arrived)
    latencies_ms = [(first_arrival[d] - committed[e]) * 1000 for d, e in delivery_event.items()]
    start = min(first_arrival.values()) if from_first_arrival else min(committed.values())
    rate = (len(delivery_event) - from_first_arrival) / (max(first_arrival.values()) - start)
    sent = WebhookAttempt.objects.filter(delivery__event_id__in=committed).count()
    return Measured(rate, latencies_ms, sent, len(arrivals))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--events", type=int, default=2000, help="events (and reference POSTs) per run (2000)")
    parser.add_argument("--concurrency", type=int, default=4, help="worker processes (Procfile default 4)")
    parser.add_argument("--producers", type=int, default=4, help="threads committing the drain run's events (4)")
    parser.add_argument("--paced-events", type=int, default=500, help="events of the paced latency run (500)")
    parser.add_argument(
        "--paced-share", type=float, default=0.5, help="paced run's rate as a share of the drain rate (0.5)"
    )
    parser.add_argument("--paced-rate", type=float, help="paced run's events/s (overrides --paced-share)")
    parser.add_argument("--worker-arg", action="append", default=[], help="extra `celery worker` argument (repeatable)")
    parser.add_argument("--worker-log-level", default="WARNING", help="INFO logs every task's run time")
    parser.add_argument("--db-name", default="kiosk_bench_wh")
    parser.add_argument("--admin-url", default=harness.DEFAULT_ADMIN_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 when the ratio is below the target")
    parser.add_argument("--serve-receiver", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve_receiver:
        serve_receiver(args.serve_receiver)
        return 0

    queue = f"kiosk-bench-wh-{uuid.uuid4().hex[:8]}"
    env = harness.BenchEnv(
        db_name=args.db_name,
        admin_url=args.admin_url,
        redis_url=args.redis_url,
        cache_prefix=f"kiosk-bench-wh-{uuid.uuid4().hex[:6]}",
        extra={"DJANGO_SETTINGS_MODULE": "tests.support.worker_settings", "WORKER_QUEUE": queue, "TASK_MODE": "celery"},
    )
    harness.create_database(env)
    receiver = worker = None
    try:
        harness.setup_django(env)
        from django.db import connections

        from apps.accounts.models import Business, Owner
        from apps.kiosks.models import Kiosk
        from apps.webhooks import services, signing

        receiver = ReceiverProcess()
        owner = Owner.objects.create(name="Bench Owner")
        business = Business.objects.create(owner=owner, name="Bench Business")
        kiosk = Kiosk.objects.create(business=business, name="Bench Kiosk", location="Front door")
        services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])
        say(f"receiver on {receiver.url}; {args.events} events per run")

        body = signing.body_bytes("kiosk.offline", payload(10**6), "2026-01-01T00:00:00Z")
        reference_seconds = run_reference(receiver.url, body, args.events)
        receiver.stats()  # drop the reference's arrivals

        committed = emit_events(kiosk, args.events, producers=args.producers)
        emit_rate = args.events / (time.time() - min(committed.values()))
        worker = WorkerProcess(env, args.concurrency, args.worker_log_level, args.worker_arg)
        drain = measure(receiver, wait_for(committed), from_first_arrival=True)

        # A sweep may queue a drain for work still waiting in a long queue; let such tasks (each
        # at most a no-op claim) drain first, so the paced run measures latency, not that backlog.
        backlog_left = wait_queue_empty(queue, timeout=600)
        paced_rate = args.paced_rate or max(1.0, drain.rate * args.paced_share)
        paced = measure(receiver, wait_for(emit_events(kiosk, args.paced_events, rate=paced_rate)))
        reference_rate = args.events / reference_seconds
        connections.close_all()
    finally:
        if worker:
            worker.stop()
        if receiver:
            receiver.stop()
        try:
            remove_queue(queue)
            harness.clear_redis_prefix(env)
            from django.db import connections

            connections.close_all()
        except Exception as exc:
            say(f"cleanup: {exc!r}")
        if not args.keep_db:
            harness.drop_database(env)

    say("")
    say("reference = sequential requests.Session().post loop (one thread, keep-alive)")
    say(
        f"webhooks  = events.emit (commit) -> one Celery worker (prefork x{args.concurrency}) on Redis + "
        "PostgreSQL -> signed POST; latency = event commit to arrival at the receiver"
    )
    say(f"{'':<18}{'deliv/s':>9}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}{'sent':>7}{'received':>10}")
    say(f"{'reference':<18}{reference_rate:>9.0f}{'':>9}{'':>9}{'':>9}{args.events:>7}{args.events:>10}")
    say(f"{'webhooks drain':<18}{drain.rate:>9.0f}{'':>9}{'':>9}{'':>9}{drain.sent:>7}{drain.received:>10}")
    say(
        f"{f'webhooks {paced_rate:.0f}/s':<18}{paced.rate:>9.0f}{paced.p(50):>9.1f}{paced.p(99):>9.1f}"
        f"{max(paced.latencies_ms):>9.1f}{paced.sent:>7}{paced.received:>10}"
    )
    say(f"drain: {args.events} events queued first (committed by {args.producers} threads at {emit_rate:.0f}/s)")
    say(
        f"due-dispatch sweeps while waiting: {SWEEPS['runs']}, due deliveries they queued a drain for: "
        f"{SWEEPS['resent']} (the queue took {backlog_left:.1f} s more to empty before the paced run)"
    )
    webhook_rate = drain.rate
    ratio = webhook_rate / reference_rate
    verdict = "meets" if ratio >= TARGET_RATIO else "BELOW"
    say(f"webhooks / reference throughput: {ratio:.1%}  (target >= {TARGET_RATIO:.0%}: {verdict} target)")
    return 1 if args.check and ratio < TARGET_RATIO else 0


if __name__ == "__main__":
    sys.exit(main())
