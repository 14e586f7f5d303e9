"""The HTTP client of webhook deliveries: one keep-alive session per worker process (per thread
in the embedded mode) that keeps no cookies, checks the address it actually connected to, and
holds every attempt to one overall deadline.

- The receiver's name is checked when the subscription is made and before each attempt
  (targets.check_url), but the HTTP library resolves it again to connect: a name that answers a
  public address to the check and a private one to the connect (DNS rebinding) would slip
  through. So each new connection's peer address is checked too, before a byte is sent.
- The 5-second timeout of the HTTP library is per socket operation: a receiver trickling its
  answer a byte every few seconds would hold a worker for as long as it liked. A timer cuts the
  connection when the attempt's overall deadline passes.
"""

import http.cookiejar
import socket
import threading
import time
from contextlib import contextmanager, suppress

import requests
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError

from apps.webhooks import targets

_local = threading.local()


class DeadlinePassed(Exception):
    """The attempt's overall deadline passed; the connection was cut."""


def _cut(sock: socket.socket, attempt: dict) -> None:
    attempt["cut"] = True
    with suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)


class _Guarded:
    def _new_conn(self):
        sock = super()._new_conn()
        peer = sock.getpeername()[0]
        if targets.refuses_address(peer):
            sock.close()
            raise NewConnectionError(self, f"{self.host} connected to a refused address ({peer})")
        return sock

    def getresponse(self, *args, **kwargs):
        attempt = getattr(_local, "attempt", None)
        if attempt is not None and self.sock is not None:
            timer = threading.Timer(max(0.0, attempt["deadline"] - time.monotonic()), _cut, (self.sock, attempt))
            timer.daemon = True
            timer.start()
            attempt["timers"].append(timer)
        return super().getresponse(*args, **kwargs)


class _GuardedHTTPConnection(_Guarded, HTTPConnection):
    pass


class _GuardedHTTPSConnection(_Guarded, HTTPSConnection):
    pass


class _GuardedHTTPPool(HTTPConnectionPool):
    ConnectionCls = _GuardedHTTPConnection


class _GuardedHTTPSPool(HTTPSConnectionPool):
    ConnectionCls = _GuardedHTTPSConnection


class _GuardedAdapter(HTTPAdapter):
    def init_poolmanager(self, *args, **kwargs):
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _GuardedHTTPPool, "https": _GuardedHTTPSPool}


def session() -> requests.Session:
    current = getattr(_local, "session", None)
    if current is None:
        current = requests.Session()
        current.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        adapter = _GuardedAdapter()
        current.mount("http://", adapter)
        current.mount("https://", adapter)
        _local.session = current
    return current


@contextmanager
def deadline(seconds: float):
    """Everything in the block (connect, send, the answer's head and the part of its body that
    is read) must be over within `seconds`; a request failing because the time ran out raises
    DeadlinePassed."""
    attempt = {"deadline": time.monotonic() + seconds, "timers": [], "cut": False}
    _local.attempt = attempt
    try:
        yield
    except (requests.RequestException, OSError) as exc:
        if attempt["cut"]:
            raise DeadlinePassed() from exc
        raise
    finally:
        _local.attempt = None
        for timer in attempt["timers"]:
            timer.cancel()
