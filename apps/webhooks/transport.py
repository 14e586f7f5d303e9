"""The HTTP client of webhook deliveries: one keep-alive session per worker process (per thread
in the embedded mode) that keeps no cookies, checks the address it actually connected to, and
holds every attempt to one overall deadline.

- The receiver's name is checked when the subscription is made and before each attempt
  (targets.check_url), but the HTTP library resolves it again to connect: a name that answers a
  public address to the check and a private one to the connect (DNS rebinding) would slip
  through. So each new connection's peer address is checked too, before a byte is sent
  (the urllib3 part is in urllib3_adapter.py).
- The 5-second timeout of the HTTP library is per socket operation: a receiver trickling its
  answer a byte every few seconds would hold a worker for as long as it liked. A watchdog cuts
  the connection when the attempt's overall deadline passes. One watchdog thread per process
  serves every attempt: starting a timer thread per POST cost about a sixth of a batched
  delivery's time.
- Proxy settings from the environment (HTTPS_PROXY, .netrc) are ignored: through a proxy the
  peer address checked here would be the proxy's, not the receiver's, and .netrc credentials
  must never go to a receiver. (Not consulting them also saves a scan of the environment per POST.)
"""

import heapq
import http.cookiejar
import itertools
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TypedDict

import requests

from apps.webhooks import targets, urllib3_adapter

_local = threading.local()


class DeadlinePassed(Exception):
    """The attempt's overall deadline passed; the connection was cut."""


class Attempt(TypedDict):
    deadline: float  # time.monotonic()
    cut: bool  # the watchdog cut its socket
    done: bool  # over: its sockets are never cut


class _Watchdog:
    """Cuts the socket of every attempt still running at its deadline. Entries of finished
    attempts stay in the heap until their time (removing them would cost more than skipping
    them); the thread wakes at most every TICK while any are pending, so a cut may come up to
    TICK late."""

    TICK = 0.05

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.heap: list[tuple[float, int, socket.socket, Attempt]] = []
        self.order = itertools.count()
        self.thread: threading.Thread | None = None
        self.stopping = False

    def watch(self, sock: socket.socket, attempt: Attempt) -> None:
        with self.lock:
            if self.thread is None or not self.thread.is_alive():  # also after a fork (prefork pool)
                self.stopping = False
                self.thread = threading.Thread(target=self._run, name="webhook-deadline", daemon=True)
                self.thread.start()
            first = not self.heap or attempt["deadline"] < self.heap[0][0]
            heapq.heappush(self.heap, (attempt["deadline"], next(self.order), sock, attempt))
            if first:
                self.lock.notify()

    def finish(self, attempt: Attempt) -> None:
        """After this, the attempt's sockets are never cut (they may be back in the pool)."""
        with self.lock:
            attempt["done"] = True

    def stop(self) -> None:
        """At shutdown, once no attempt runs any more (the next watch() starts a new thread)."""
        with self.lock:
            self.stopping, self.heap = True, []
            self.lock.notify()

    def _run(self) -> None:
        with self.lock:
            while not self.stopping:
                now = time.monotonic()
                while self.heap and self.heap[0][0] <= now:
                    _, _, sock, attempt = heapq.heappop(self.heap)
                    if not attempt["done"]:
                        attempt["cut"] = True
                        with suppress(OSError):
                            sock.shutdown(socket.SHUT_RDWR)
                self.lock.wait(max(self.heap[0][0] - now, self.TICK) if self.heap else None)


_watchdog = _Watchdog()


def stop_watchdog() -> None:
    _watchdog.stop()


def _watch(sock: socket.socket) -> None:
    attempt = getattr(_local, "attempt", None)
    if attempt is not None:
        _watchdog.watch(sock, attempt)


def session() -> requests.Session:
    current = getattr(_local, "session", None)
    if current is None:
        current = requests.Session()
        current.trust_env = False  # no environment proxies or .netrc (see the module docstring)
        current.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        adapter = urllib3_adapter.guarded_adapter(targets.refuses_address, _watch)
        current.mount("http://", adapter)
        current.mount("https://", adapter)
        _local.session = current
    return current


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Everything in the block (connect, send, the answer's head and the part of its body that
    is read) must be over within `seconds`; a request failing because the time ran out raises
    DeadlinePassed."""
    attempt: Attempt = {"deadline": time.monotonic() + seconds, "cut": False, "done": False}
    _local.attempt = attempt
    try:
        yield
    except (requests.RequestException, OSError) as exc:
        if attempt["cut"]:
            raise DeadlinePassed() from exc
        raise
    finally:
        _local.attempt = None
        _watchdog.finish(attempt)
