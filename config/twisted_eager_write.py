"""Twisted's TCP write path, sending at once when nothing is queued: the one place that touches
Twisted's private names.

Twisted queues every write and sends it once the loop reports the socket writable: two epoll
changes and a loop turn per write, which was a third of the cost of a broadcast frame to 500
WebSockets (docs/decisions/configuration.md). asyncio's own transports send at once. Twisted offers
no public switch for this, so `EagerWriteConnection.write` reads two private attributes of
`twisted.internet.abstract.FileDescriptor` to know whether anything is still queued:

- `_tempDataBuffer`: writes not yet joined into `dataBuffer`;
- `_writeDisconnected`: the write side was shut down (loseWriteConnection).

Twisted is pinned exactly in requirements.txt, and tests/operations/test_server_adapters.py fails loudly if
either name disappears or changes meaning in an upgrade. What the socket does not take at once is
queued as before, so the order of the bytes never changes.
"""

from twisted.internet import tcp

PRIVATE_NAMES = ("_tempDataBuffer", "_writeDisconnected")


class EagerWriteConnection(tcp.Server):
    def write(self, data: bytes) -> None:
        queued = self.dataBuffer or self._tempDataBuffer
        if self.TLS or not self.connected or self.disconnecting or self._writeDisconnected or queued:
            # The TLS mixin first in tcp.Server's order (twisted.internet._newtls) leaves it unannotated.
            super().write(data)  # type: ignore[no-untyped-call]
            return
        sent = self.writeSomeData(data)
        if not isinstance(sent, int):  # the connection is lost: the reader notices and closes it
            return None
        if sent < len(data):
            super().write(data[sent:])  # type: ignore[no-untyped-call]  # as above
        return None


def use_eager_writes(port: object) -> None:
    """Make a listening TCP port create EagerWriteConnection for each accepted connection
    (`Port.transport` is the documented class attribute naming the connection class)."""
    if isinstance(port, tcp.Port):
        port.transport = EagerWriteConnection
