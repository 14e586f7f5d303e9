"""The web process: daphne with an orderly drain on SIGTERM (and SIGINT).

    python -m config.serve -b 0.0.0.0 -p 8000 config.asgi:application   (daphne's own options)

Plain daphne stops its reactor at once on SIGTERM. A request still running in a worker thread
then waits forever for the stopped event loop, and the interpreter waits forever for that
thread at exit: under load the process never ends, and the orchestrator's kill cuts everything
still open. Here a signal starts a drain instead, bounded by SHUTDOWN_GRACE_SECONDS:

1. stop listening (after accepting what is already queued): new connections are refused, and
   the balancer sends them to another process;
2. close every WebSocket with 4200, so pusher-js reconnects at once (to another process);
3. finish the requests in flight; every response from now on says `Connection: close`, so a
   keep-alive client's next request goes to a new connection (refused). Connections left idle
   are closed once no request has started for a moment;
4. stop the background work (embedded beat, job pool, webhook watchdog) and the reactor; exit 0.

Meanwhile, every MEMORY_TRIM_SECONDS it frees closed connections' objects and gives freed memory
back to the system (config/memory_trim.py).

When the grace time runs out first, what is still running is cut and the process exits 1.

This module is daphne's adapter: daphne has no documented hooks for a drain, so DrainingServer
overrides methods of `daphne.server.Server` (run, listen_success, application_checker,
timeout_checker, protocol_connected, handle_reply, kill_all_applications) and the CLI's
`server_class`. daphne is pinned exactly in requirements.txt, and tests/operations/test_server_adapters.py
fails loudly if one of those names disappears or changes its signature in an upgrade. Twisted's
private write path is in config/twisted_eager_write.py; the signal handlers use documented APIs
(Twisted's `callWhenRunning`, asyncio's `add_signal_handler` on the running loop).
"""

from daphne.cli import CommandLineInterface  # isort: skip  (installs the asyncio reactor first)
from daphne.server import Server  # isort: skip

import asyncio
import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, Protocol, cast

from asgiref.typing import ASGISendEvent
from twisted.internet import defer, tcp
from twisted.internet import reactor as installed_reactor
from twisted.internet.interfaces import IDelayedCall, IReadDescriptor, IWriteDescriptor

from config import memory_trim
from config.twisted_eager_write import use_eager_writes

logger = logging.getLogger("config.serve")


class Reactor(Protocol):
    """The parts of the installed reactor used here (IReactorCore, IReactorTime, IReactorFDSet)."""

    running: bool

    def callLater(self, delay: float, callable: Callable[..., object], *args: object) -> IDelayedCall: ...
    def callWhenRunning(self, callable: Callable[..., object], *args: object) -> int | None: ...
    def stop(self) -> None: ...
    def getReaders(self) -> list[IReadDescriptor]: ...
    def getWriters(self) -> list[IWriteDescriptor]: ...


class ListeningPort(Protocol):
    """A port daphne listens on (tcp.Port, or another endpoint's); Twisted declares its interfaces
    with zope.interface, whose methods a type checker reads without `self`."""

    def doRead(self) -> None: ...
    def stopListening(self) -> object: ...


# Twisted's type information describes the module `twisted.internet.reactor`, not the reactor
# object that importing it installs.
reactor = cast(Reactor, installed_reactor)

QUIET_SECONDS = 1.0  # idle keep-alive connections are closed once no request started for this long
SHUTDOWN_RESERVE_SECONDS = 1.0  # of the grace time, kept for stopping background work
# daphne walks every connection each second (reaping finished applications) and every 2 s
# (timeouts, its WebSocket pings): at 10,000 idle WebSockets those walks were 40 % of the idle
# CPU. Rarer walks only make a reap, a ping or a handshake timeout up to this much later.
APPLICATION_SWEEP_SECONDS = 5.0
TIMEOUT_SWEEP_SECONDS = 10.0


class DrainingServer(Server):  # type: ignore[misc]  # daphne ships no type information
    draining_since: float | None = None
    signal_handlers: bool  # daphne's: whether it installs Twisted's (which stop the reactor at once)
    last_request_at = 0.0
    last_application_sweep = last_timeout_sweep = 0.0
    closed_at_last_collection = 0

    def run(self) -> None:
        self.ports: list[ListeningPort] = []
        if self.signal_handlers:  # ours instead of Twisted's (which stop the reactor at once)
            self.signal_handlers = False
            # Startup callbacks fire just before the loop starts turning; one loop turn later
            # asyncio's running loop is the reactor's.
            reactor.callWhenRunning(reactor.callLater, 0, self.install_signal_handlers)
        reactor.callWhenRunning(self.trim_memory)
        super().run()

    def trim_memory(self) -> None:
        """Every MEMORY_TRIM_SECONDS, on the loop: freed memory back to the system, after a full
        collection once many WebSockets have closed (config/memory_trim.py)."""
        from django.conf import settings

        from apps.realtime.consumer import closed_connection_count

        interval = float(settings.MEMORY_TRIM_SECONDS)
        if interval <= 0:
            return
        closed = closed_connection_count()
        collect = closed - self.closed_at_last_collection >= settings.MEMORY_COLLECT_AFTER_CLOSED
        if collect:
            self.closed_at_last_collection = closed
        memory_trim.give_back(collect=collect)
        reactor.callLater(interval, self.trim_memory)

    def install_signal_handlers(self) -> None:
        """On the running loop (the asyncio reactor runs asyncio's loop): SIGTERM and SIGINT drain."""
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(signum, self.on_signal, signum)

    def listen_success(self, port: ListeningPort) -> None:
        self.ports.append(port)
        use_eager_writes(port)
        super().listen_success(port)

    def application_checker(self) -> None:
        now = time.monotonic()
        if now - self.last_application_sweep < APPLICATION_SWEEP_SECONDS:
            reactor.callLater(1, self.application_checker)  # daphne's own period: a cheap wake-up
            return
        self.last_application_sweep = now
        super().application_checker()  # walks the connections and schedules the next call

    def timeout_checker(self) -> None:
        now = time.monotonic()
        if now - self.last_timeout_sweep < TIMEOUT_SWEEP_SECONDS:
            reactor.callLater(2, self.timeout_checker)
            return
        self.last_timeout_sweep = now
        super().timeout_checker()

    def protocol_connected(self, protocol: object) -> None:
        self.last_request_at = time.monotonic()
        super().protocol_connected(protocol)

    async def handle_reply(self, protocol: object, message: ASGISendEvent) -> None:
        if self.draining_since is not None and message["type"] == "http.response.start":
            channel = getattr(protocol, "channel", None)
            if channel is not None:
                channel.persistent = False  # Twisted closes the connection after this response
                message = {**message, "headers": [*message.get("headers", []), (b"connection", b"close")]}
        await super().handle_reply(protocol, message)

    def kill_all_applications(self) -> "defer.Deferred[list[Any | BaseException] | None]":
        # daphne's own raises KeyError on a request whose body is still arriving (no application
        # yet), which skips the cancellation of the others.
        running = [d["application_instance"] for d in self.connections.values() if "application_instance" in d]
        running = [task for task in running if not task.done()]
        for task in running:
            task.cancel()
        waited = defer.Deferred.fromFuture(asyncio.gather(*running, return_exceptions=True))
        return waited.addErrback(lambda _: None)

    # ------------------------------------------------------------------------------ the drain

    def on_signal(self, signum: int) -> None:
        if self.draining_since is not None:
            if signum == signal.SIGINT:  # a second Ctrl-C: stop now
                logger.warning("second interrupt: stopping without waiting")
                reactor.stop()
            return
        from django.conf import settings

        grace = float(settings.SHUTDOWN_GRACE_SECONDS)
        self.draining_since = time.monotonic()
        logger.info("%s: draining (grace %.0f s)", signal.Signals(signum).name, grace)
        last_resort = threading.Timer(grace, self.give_up, args=(grace,))
        last_resort.daemon = True  # a clean exit does not wait for it
        last_resort.start()
        asyncio.ensure_future(self.drain(self.draining_since, self.draining_since + grace))

    def give_up(self, grace: float) -> None:
        """The last resort: work still running after the grace time (a stuck request thread)
        would keep the interpreter from exiting."""
        try:
            logger.warning("shutdown grace of %.0f s ran out (%d requests still running)", grace, self.in_flight())
            logging.shutdown()
        finally:
            os._exit(1)

    async def drain(self, since: float, hard_deadline: float) -> None:
        deadline = hard_deadline - SHUTDOWN_RESERVE_SECONDS
        for port in self.ports:
            port.doRead()  # accept connections already queued, or closing the socket resets them
            if isinstance(port, tcp.Port):
                # Twisted closes a port's socket only on the next loop turn, and meanwhile the
                # kernel keeps completing handshakes into its backlog: a client that connected in
                # that window was reset, not refused. Shutting the socket down stops listening now.
                with contextlib.suppress(OSError):
                    port.socket.shutdown(socket.SHUT_RDWR)
            port.stopListening()
        from apps.realtime.consumer import shut_down as shut_down_realtime

        try:
            await asyncio.wait_for(shut_down_realtime(), max(0.1, deadline - time.monotonic()))
        except Exception:
            logger.exception("could not close the WebSockets cleanly")
        while time.monotonic() < deadline and not self.drained():
            await asyncio.sleep(0.05)
        if self.in_flight():
            logger.warning("cutting %d requests still running at the end of the grace time", self.in_flight())
        from apps.core.jobs import stop_background_work

        remaining = max(0.1, hard_deadline - time.monotonic() - 0.5)
        if not await asyncio.to_thread(stop_background_work, remaining):
            logger.warning("background jobs still running at shutdown; the periodic sweeps will redo them")
        logger.info("stopping, %.1f s after the signal", time.monotonic() - since)
        if reactor.running:  # not stopped already by a second Ctrl-C
            reactor.stop()

    def in_flight(self) -> int:
        """Requests (and WebSockets) whose application has not finished, or whose body is still
        arriving (daphne registers a request before it creates its application)."""
        count = 0
        for details in list(self.connections.values()):
            application = details.get("application_instance")
            count += (not application.done()) if application is not None else ("disconnected" not in details)
        return count

    def drained(self) -> bool:
        if self.in_flight():
            return False
        # Every connection left is an idle keep-alive one: close it once no request has started
        # for a moment (its client may be about to send one, which then gets `Connection: close`).
        open_connections = {c for c in reactor.getReaders() + reactor.getWriters() if isinstance(c, tcp.Connection)}
        since = self.draining_since if self.draining_since is not None else self.last_request_at
        return not open_connections or time.monotonic() - max(self.last_request_at, since) > QUIET_SECONDS


class DrainingCommandLine(CommandLineInterface):  # type: ignore[misc]  # daphne ships no type information
    server_class = DrainingServer


if __name__ == "__main__":
    sys.exit(DrainingCommandLine().run(sys.argv[1:]))
