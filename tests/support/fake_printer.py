"""A fake network ticket printer: a TCP server on a loopback port, as an ESC/POS printer listens on
port 9100. It records the bytes it receives, answers the real-time status queries (DLE EOT 1, 2
and 4) as the printer's state says, and can be offline (it says so), unreachable (it closes each
connection at once), out of paper, open, or drop the connection in the middle of a ticket.

`tickets` are the tickets it printed whole (up to their cut), decoded to text by `decode`: the
words and line breaks, the cut as "<cut>", a QR code as "<qr …>". Tests wait on it with
`wait_for_tickets`, never with a fixed sleep."""

import socketserver
import threading
import time
from dataclasses import dataclass, field

from apps.printing.escpos_io import DLE_EOT, decode, whole_tickets
from tests.support.loopback import SHUTDOWN_POLL_SECONDS

__all__ = ["FakePrinter", "decode"]

ONLINE, OFFLINE, UNREACHABLE, PAPER_OUT, COVER_OPEN = "online", "offline", "unreachable", "paper_out", "cover_open"


@dataclass
class FakePrinter:
    state: str = ONLINE
    drop_after: int | None = None  # close the connection after this many ticket bytes (once)
    connections: list[bytes] = field(default_factory=list)  # the ticket bytes of each connection
    queries: int = 0
    _lock: threading.Condition = field(default_factory=threading.Condition)

    def __post_init__(self) -> None:
        fake = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                fake._serve(self.request)

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.server.block_on_close = False
        self.host, self.port = self.server.server_address[:2]
        poll = {"poll_interval": SHUTDOWN_POLL_SECONDS}  # close() waits for the loop's next look
        threading.Thread(target=self.server.serve_forever, kwargs=poll, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def _status(self, query: int) -> bytes:
        self.queries += 1
        if query == 1:  # printer: bit 3 is "off line"
            return bytes([0x12 | (0x08 if self.state != ONLINE else 0)])
        if query == 2:  # off line cause: bit 2 is the cover, bit 5 printing stopped for paper
            return bytes([0x12 | (0x04 if self.state == COVER_OPEN else 0) | (0x20 if self.state == PAPER_OUT else 0)])
        if query == 4:  # paper roll sensor: 0x60 paper end
            return bytes([0x72 if self.state == PAPER_OUT else 0x12])
        return b""

    def _serve(self, sock) -> None:
        if self.state == UNREACHABLE:
            return  # closed at once: the client hears nothing
        with self._lock:
            index = len(self.connections)
            self.connections.append(b"")
        pending = b""
        while True:
            try:
                chunk = sock.recv(4096)
            except OSError:
                return
            if not chunk:
                return
            pending += chunk
            while pending:
                at = pending.find(DLE_EOT)
                if at == -1:  # a last DLE may begin a query whose EOT is still to come
                    keep = 1 if pending.endswith(DLE_EOT[:1]) else 0
                    ticket, pending = pending[: len(pending) - keep], pending[len(pending) - keep :]
                    if ticket and not self._record(index, ticket):
                        return  # dropped mid-ticket
                    break
                if at and not self._record(index, pending[:at]):
                    return
                pending = pending[at:]
                if len(pending) < 3:
                    break
                sock.sendall(self._status(pending[2]))
                pending = pending[3:]

    def _record(self, index: int, data: bytes) -> bool:
        with self._lock:
            if self.drop_after is not None and len(self.connections[index]) + len(data) > self.drop_after:
                keep = max(0, self.drop_after - len(self.connections[index]))
                self.connections[index] += data[:keep]
                self.drop_after = None
                self._lock.notify_all()
                return False
            self.connections[index] += data
            self._lock.notify_all()
            return True

    @property
    def tickets(self) -> list[str]:
        """Every whole ticket printed (up to its cut), decoded, in the order received."""
        with self._lock:
            streams = list(self.connections)
        return [ticket for stream in streams for ticket in whole_tickets(stream)]

    def wait_for_tickets(self, count: int, timeout: float = 10) -> list[str]:
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.tickets) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
        return self.tickets
