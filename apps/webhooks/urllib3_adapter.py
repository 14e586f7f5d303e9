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
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import NewConnectionError
from urllib3.response import HTTPResponse

RefusesAddress = Callable[[str], bool]
WatchSocket = Callable[[socket.socket], None]


def guarded_adapter(refuses_address: RefusesAddress, watch: WatchSocket) -> HTTPAdapter:
    """A requests transport adapter whose connections refuse a peer address for which
    `refuses_address(ip)` is true (NewConnectionError, nothing sent) and call `watch(sock)` each
    time a request starts waiting for its answer."""

    # GuardedHTTPSConnection's order is (GuardedHTTPConnection, HTTPSConnection, HTTPConnection):
    # there the guard's super() is HTTPSConnection, which connects through HTTPConnection._new_conn.
    class GuardedHTTPConnection(HTTPConnection):
        def _new_conn(self) -> socket.socket:
            sock = super()._new_conn()
            peer = str(sock.getpeername()[0])
            if refuses_address(peer):
                sock.close()
                raise NewConnectionError(self, f"{self.host} connected to a refused address ({peer})")
            return sock

        # urllib3 narrows http.client's return type here, with the same ignore.
        def getresponse(self) -> HTTPResponse:  # type: ignore[override]
            if self.sock is not None:
                watch(self.sock)
            return super().getresponse()

    class GuardedHTTPSConnection(GuardedHTTPConnection, HTTPSConnection):
        pass

    class GuardedHTTPPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    class GuardedAdapter(HTTPAdapter):
        # requests' own signature: the pool options are urllib3's.
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = {"http": GuardedHTTPPool, "https": GuardedHTTPSPool}

    return GuardedAdapter()
