"""A fake network ticket printer: a TCP server on a loopback port, as an ESC/POS printer listens on
port 9100. It records the bytes it receives, answers the real-time status queries (DLE EOT 1, 2
and 4) as the printer's state says, and can be offline (it says so), unreachable (it closes each
connection at once), out of paper, open, or drop the connection in the middle of a ticket.

`tickets` are the tickets it printed whole (up to their cut), decoded to text by `decode`: the
words and line breaks, the cut as "<cut>", a QR code as "<qr …>". Tests wait on it with
`wait_for_tickets`, never with a fixed sleep."""

import re
import socketserver
import threading
import time
from dataclasses import dataclass, field

DLE_EOT = b"\x10\x04"
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
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

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
        printed = []
        for stream in streams:
            for piece in re.split(rb"\x1dV[\x00\x01\x30\x31]", stream)[:-1]:
                printed.append(decode(piece) + "<cut>")
        return printed

    def wait_for_tickets(self, count: int, timeout: float = 10) -> list[str]:
        deadline = time.monotonic() + timeout
        with self._lock:
            while len(self.tickets) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._lock.wait(left)
        return self.tickets


def _codepages() -> dict[int, str]:
    from escpos.printer import Dummy

    names = Dummy().profile.profile_data["codePages"]
    return {int(n): name.lower().replace("iso_8859-", "iso8859_") for n, name in names.items()}


# ESC and GS commands python-escpos sends, by their letter: how many parameter bytes follow.
_ESC = {0x40: 0, 0x21: 1, 0x45: 1, 0x61: 1, 0x74: 1, 0x7B: 1, 0x2D: 1, 0x4D: 1, 0x64: 1, 0x47: 1}
_GS = {0x21: 1, 0x62: 1, 0x42: 1, 0x56: 1}


def decode(data: bytes) -> str:
    """The words of ESC/POS bytes, in the code pages they switch to (ESC t n)."""
    pages = _codepages()
    page = "cp437"
    out: list[str] = []
    i = 0
    while i < len(data):
        byte = data[i]
        if byte == 0x1B:
            command = data[i + 1]
            if command == 0x74:
                page = pages.get(data[i + 2], "cp437")
            if command not in _ESC:
                raise ValueError(f"unknown ESC {command:#x} at {i}")
            i += 2 + _ESC[command]
        elif byte == 0x1D and data[i + 1] == 0x28 and data[i + 2] == 0x6B:  # GS ( k: a QR code's parts
            size = data[i + 3] + 256 * data[i + 4]
            body = data[i + 5 : i + 5 + size]
            if body.startswith(b"1P0"):
                out.append(f"<qr {body[3:].decode()}>\n")
            i += 5 + size
        elif byte == 0x1D:
            command = data[i + 1]
            if command not in _GS:
                raise ValueError(f"unknown GS {command:#x} at {i}")
            i += 2 + _GS[command]
        else:
            end = i
            while end < len(data) and data[end] not in (0x1B, 0x1D):
                end += 1
            out.append(data[i:end].decode(page, errors="replace"))
            i = end
    return "".join(out)
