"""Twisted adapter: oversized request heads get an answer from daphne, not a dropped connection.

Daphne parses HTTP/1.1 with Twisted's HTTPChannel, which limits the request line plus headers
to `totalHeadersSize` (16 KB) and each line to `MAX_LENGTH` (16 KB). Past the total it writes a
bare `400 Bad Request`; past one line's limit (one 40 KB cookie, say) it closes the connection
without a word, which clients and balancers report as a network failure. `install` makes both
answer `431 Request Header Fields Too Large` with the JSON envelope `{error: {code, message}}`
and close. Called by config/asgi.py; without Twisted (another ASGI server) it does nothing.

Why an adapter: neither daphne nor Twisted has an option for this answer, and daphne builds
Twisted's own HTTPChannel (through Twisted's HTTPFactory), so no subclass can be handed in. The
override therefore replaces two methods on HTTPChannel itself; both are LineReceiver's public,
documented hooks (`lineReceived`, `lineLengthExceeded`), and the head is counted here rather than
through Twisted's private counter. Twisted is pinned exactly (requirements.txt) and
tests/operations/test_library_adapters.py fails if a name used here disappears.
"""

import json
from collections.abc import Callable
from typing import Any

HEADERS_TOO_LARGE = "REQUEST_HEADERS_TOO_LARGE"


def _response(limit: int) -> bytes:
    body = json.dumps(
        {
            "error": {
                "code": HEADERS_TOO_LARGE,
                "message": f"The request line and headers are larger than the limit of {limit} bytes.",
            }
        }
    ).encode()
    head = (
        "HTTP/1.1 431 Request Header Fields Too Large\r\n"
        "Content-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n"
        "Connection: close\r\n\r\n"
    )
    return head.encode() + body


def install() -> None:
    try:
        from twisted.web import http
    except ImportError:
        return
    channel = http.HTTPChannel
    if getattr(channel, "_answers_431", False):
        return
    line_received: Callable[[http.HTTPChannel, bytes], None] = channel.lineReceived

    # `self` is an HTTPChannel (patched below); Any because these keep their own state on it
    # (_refused_431, _kiosk_head_bytes), attributes HTTPChannel does not declare.
    def refuse(self: Any) -> None:
        if not getattr(self, "_refused_431", False):
            self._refused_431 = True
            self.transport.write(_response(min(self.totalHeadersSize, self.MAX_LENGTH)))
            self.loseConnection()

    def lineReceived(self: Any, line: bytes) -> None:  # noqa: N802  (Twisted's name)
        # The same count as Twisted's: the request line and every header line; a blank line ends
        # the head (Twisted reads bodies in raw mode, so only heads pass through here).
        received = getattr(self, "_kiosk_head_bytes", 0) + len(line)
        if received > self.totalHeadersSize:
            return refuse(self)
        self._kiosk_head_bytes = 0 if not line else received
        return line_received(self, line)

    def lineLengthExceeded(self: Any, line: bytes) -> None:  # noqa: N802
        return refuse(self)

    # Set on the class itself: daphne builds Twisted's HTTPChannel (see the module docstring).
    setattr(channel, "lineReceived", lineReceived)  # noqa: B010
    setattr(channel, "lineLengthExceeded", lineLengthExceeded)  # noqa: B010
    setattr(channel, "_answers_431", True)  # noqa: B010
