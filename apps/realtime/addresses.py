"""The address a WebSocket connection comes from, for the per-address connection limit: the same
rule as the HTTP surfaces' (apps.core.client_address), from the ASGI scope's peer and headers."""

from asgiref.typing import WebSocketScope

from apps.core.client_address import caller_address


def client_address(scope: WebSocketScope) -> str:
    peer = (scope.get("client") or ("", 0))[0] or ""
    forwarded = ", ".join(
        value.decode("latin-1") for name, value in scope.get("headers", []) if name.lower() == b"x-forwarded-for"
    )
    return caller_address(peer, forwarded)
