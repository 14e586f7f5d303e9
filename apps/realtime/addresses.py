"""The address a WebSocket connection comes from, for the per-address connection limit.

The same rule as the HTTP surfaces' `apps.api.inputs.client_ip` (this infrastructure imports no
surface; tests/test_realtime_connection_limits.py checks the two agree): with TRUSTED_PROXY_COUNT
= 0 the socket's peer, X-Forwarded-For ignored (anyone can send it); behind n trusted proxies the
n-th entry from the right of X-Forwarded-For; an entry that is not an IP address falls back to
the peer.
"""

import ipaddress

from django.conf import settings


def client_address(scope: dict) -> str:
    peer = (scope.get("client") or ("", 0))[0] or ""
    trusted = settings.TRUSTED_PROXY_COUNT
    if trusted <= 0:
        return peer
    forwarded = ", ".join(
        value.decode("latin-1") for name, value in scope.get("headers", []) if name.lower() == b"x-forwarded-for"
    )
    if not forwarded:
        return peer
    hops = [hop.strip() for hop in forwarded.split(",")]
    candidate = hops[-min(trusted, len(hops))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return peer
