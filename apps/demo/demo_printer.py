"""The demo printer: what `make run` prints on when no real printer is there. A raw TCP listener
at DEMO_PRINTER_ADDRESS, as a network ESC/POS printer listens on port 9100: it answers the
real-time status queries as a printer that is online with paper, takes each ticket up to its cut,
and keeps the newest DEMO_PRINTER_TICKETS of them, decoded to text, for the `/demo-printer/` page.

It is started with the web process in the local mode (config/asgi.py, `start_demo_printer`) when
DEMO_PRINTER_ADDRESS is left at its default, so the page and the listener share this process's
memory; pointed elsewhere, the tickets go to that listener and nothing is served here."""

import collections
import logging
import re
import socket
import socketserver
import threading
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.utils import timezone

from apps.printing.escpos_io import DLE_EOT, decode

logger = logging.getLogger(__name__)

_CUT = re.compile(rb"\x1dV[\x00\x01\x30\x31]")  # GS V: the cut, as render() sends it
ONLINE = b"\x12"  # DLE EOT 1, 2 and 4: online, cover closed, paper present


@dataclass(frozen=True)
class ReceivedTicket:
    received_at: datetime
    peer: str
    text: str


class TicketLog:
    """The newest tickets, newest first; safe across the listener's threads."""

    def __init__(self, keep: int) -> None:
        self._tickets: collections.deque[ReceivedTicket] = collections.deque(maxlen=keep)
        self._changed = threading.Condition()

    def add(self, ticket: ReceivedTicket) -> None:
        with self._changed:
            self._tickets.appendleft(ticket)
            self._changed.notify_all()

    def newest(self) -> list[ReceivedTicket]:
        with self._changed:
            return list(self._tickets)

    def wait_for(self, count: int, timeout: float) -> list[ReceivedTicket]:
        """The tickets once there are `count` (or the timeout ran out): for tests."""
        with self._changed:
            self._changed.wait_for(lambda: len(self._tickets) >= count, timeout)
            return list(self._tickets)

    def clear(self) -> None:
        with self._changed:
            self._tickets.clear()


tickets = TicketLog(keep=50)


def readable(piece: bytes) -> str:
    """A ticket's words (the cut not shown); bytes the decoder does not know (another program's)
    as Latin-1 text."""
    try:
        return decode(piece)
    except (ValueError, IndexError):
        return piece.decode("latin-1", errors="replace")


class _Handler(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        sock: socket.socket = self.request
        sock.settimeout(30)
        peer = str(self.client_address[0])
        stream = b""
        pending = b""
        while True:
            try:
                chunk = sock.recv(4096)
            except OSError:
                break
            if not chunk:
                break
            pending += chunk
            # Status queries are answered at once; everything else is the tickets' bytes.
            while True:
                at = pending.find(DLE_EOT)
                if at == -1:  # a last DLE may begin a query whose EOT is still to come
                    split = len(pending) - (1 if pending.endswith(DLE_EOT[:1]) else 0)
                    stream, pending = stream + pending[:split], pending[split:]
                    break
                stream, pending = stream + pending[:at], pending[at:]
                if len(pending) < 3:
                    break
                sock.sendall(ONLINE)
                pending = pending[3:]
            stream = _record(stream, peer)


def _record(stream: bytes, peer: str) -> bytes:
    """Records the tickets of `stream` that reached their cut; the bytes after the last cut."""
    cuts = list(_CUT.finditer(stream))
    if not cuts:
        return stream
    for piece in _CUT.split(stream[: cuts[-1].end()])[:-1]:
        tickets.add(ReceivedTicket(received_at=timezone.now(), peer=peer, text=readable(piece)))
    return stream[cuts[-1].end() :]


class DemoPrinter(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    block_on_close = False


def split_address(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host.strip("[]") or "127.0.0.1", int(port or 9100)


def start(address: str) -> DemoPrinter | None:
    """Listen at `address` in a thread of this process; None when the address is taken."""
    try:
        server = DemoPrinter(split_address(address), _Handler)
    except OSError as exc:
        logger.warning("the demo printer cannot listen at %s (%s): tickets go wherever answers there", address, exc)
        return None
    threading.Thread(target=server.serve_forever, name="demo-printer", daemon=True).start()
    logger.info("the demo printer listens at %s; its tickets are shown at /demo-printer/", address)
    return server


def start_demo_printer() -> DemoPrinter | None:
    """The web process's demo printer, in the local mode with the default address only."""
    if not settings.DEMO_PRINTER_SERVED:
        return None
    return start(settings.DEMO_PRINTER_ADDRESS)
