"""urllib3 adapter: connections whose peer address is checked before a byte is sent, and whose
socket is handed to a watchdog when the request waits for its answer.

Why an adapter: urllib3 has no documented hook between opening the TCP connection and the first
byte sent on it; its public `connect()` also performs the TLS handshake, so a check after it
would come after a ClientHello went to the address. The one place in between is the private
`HTTPConnection._new_conn` (it returns the connected socket). The pools are swapped in through
`PoolManager.pool_classes_by_scheme`, the per-instance attribute urllib3 sets "so other
PoolManagers can override them", and `ConnectionCls`, the pools' documented class attribute;
`getresponse` is the connections' public method. urllib3 is pinned exactly (requirements.txt)
and tests/operations/test_library_adapters.py fails if `_new_conn` or the pool table disappears.
"""

import socket
from collections.abc import Callable

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError

RefusesAddress = Callable[[str], bool]
WatchSocket = Callable[[socket.socket], None]


def guarded_adapter(refuses_address: RefusesAddress, watch: WatchSocket) -> HTTPAdapter:
    """A requests transport adapter whose connections refuse a peer address for which
    `refuses_address(ip)` is true (NewConnectionError, nothing sent) and call `watch(sock)` each
    time a request starts waiting for its answer."""

    class Guarded:
        def _new_conn(self):
            sock = super()._new_conn()  # type: ignore[misc]
            peer = sock.getpeername()[0]
            if refuses_address(peer):
                sock.close()
                message = f"{self.host} connected to a refused address ({peer})"  # type: ignore[attr-defined]
                raise NewConnectionError(self, message)  # type: ignore[arg-type]  # a connection (mixin)
            return sock

        def getresponse(self, *args, **kwargs):
            if self.sock is not None:  # type: ignore[attr-defined]
                watch(self.sock)  # type: ignore[attr-defined]
            return super().getresponse(*args, **kwargs)  # type: ignore[misc]

    class GuardedHTTPConnection(Guarded, HTTPConnection):
        pass

    class GuardedHTTPSConnection(Guarded, HTTPSConnection):
        pass

    class GuardedHTTPPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    class GuardedAdapter(HTTPAdapter):
        def init_poolmanager(self, *args, **kwargs):
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = {"http": GuardedHTTPPool, "https": GuardedHTTPSPool}

    return GuardedAdapter()
