"""Who is calling: the one rule every rate limit, sign-in counter, log line and WebSocket
connection limit keys on, for HTTP requests (apps.api.inputs.client_ip) and WebSocket scopes
(apps.realtime.addresses) alike; and the same rule for how they called (X-Forwarded-Proto, which
only a trusted proxy may state: `without_untrusted_proxy_headers`, applied to every ASGI scope
in config/asgi.py)."""

import functools
import ipaddress
import logging
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)


def caller_address(peer: str, forwarded: str) -> str:
    """The caller's address, the one every rate limit, sign-in counter and log line keys on.

    Only a peer in TRUSTED_PROXIES (the deployment's load balancers, as addresses or networks) may
    say who the caller is: from any other peer, X-Forwarded-For is ignored and the caller is the
    socket's peer, so a client that reaches a web process directly cannot choose its
    own address by sending the header. From a trusted peer, the header is read from the right (each
    proxy appends the address it received the request from), skipping entries that are themselves
    trusted proxies: the first other entry is the caller, and everything left of it was written by
    the client. An entry that is not an IP address (a misconfigured proxy) gives the peer, which
    keys all such callers together rather than on something the client chose; a chain of trusted
    entries only gives its left-most one."""
    if not forwarded:
        return peer
    if not _is_trusted_proxy(peer):
        _warn_untrusted_forwarder(peer, "X-Forwarded-For")
        return peer
    hops = [hop.strip() for hop in forwarded.split(",")]
    for hop in reversed(hops):
        try:
            address = _address(hop)
        except ValueError:
            return peer
        if not _is_trusted(address):
            return str(address)
    return str(_address(hops[0]))


PROXY_ONLY_HEADERS = frozenset({b"x-forwarded-proto"})


def without_untrusted_proxy_headers(scope: dict[str, Any]) -> dict[str, Any]:
    """The ASGI scope, without X-Forwarded-Proto unless its peer is in TRUSTED_PROXIES.

    Django believes the header when TRUST_PROXY is on (SECURE_PROXY_SSL_HEADER, production's
    default): from any peer, a client reaching a web process directly over plain HTTP could say
    "https" and get what is kept for TLS (secure-only cookies set, the TLS-only APIs answered, no
    redirect to https). Removed here, before Django and the kiosk hot path read it, so the only
    peers that can state the scheme are the ones that can state the address."""
    headers = scope.get("headers") or ()
    if not any(name.lower() in PROXY_ONLY_HEADERS for name, _ in headers):
        return scope
    peer = (scope.get("client") or ("", 0))[0] or ""
    if _is_trusted_proxy(peer):
        return scope
    _warn_untrusted_forwarder(peer, "X-Forwarded-Proto")
    return {**scope, "headers": [(name, value) for name, value in headers if name.lower() not in PROXY_ONLY_HEADERS]}


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address:
    address = ipaddress.ip_address(text)
    return address.ipv4_mapped or address if isinstance(address, ipaddress.IPv6Address) else address


@functools.lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _is_trusted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    return any(address in network for network in _networks(tuple(settings.TRUSTED_PROXIES)))


def _is_trusted_proxy(peer: str) -> bool:
    try:
        return _is_trusted(_address(peer))
    except ValueError:
        return False


_warned = False


def _warn_untrusted_forwarder(peer: str, header: str) -> None:
    """Check the deployment's assumption once per process: a load balancer left out of
    TRUSTED_PROXIES would make every caller share its address (and its rate limits)."""
    global _warned
    if settings.PRODUCTION and not _warned:
        _warned = True
        logger.warning(
            "%s from %s ignored: it is not in TRUSTED_PROXIES. If it is your load balancer, "
            "add its address or network there (docs/deploy.md); until then every caller it forwards "
            "shares its address and its rate limits, and none is taken to have come over https.",
            header,
            peer,
        )
