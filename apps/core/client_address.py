"""Who is calling: the one rule every rate limit, sign-in counter, log line and WebSocket
connection limit keys on, for HTTP requests (apps.api.inputs.client_ip) and WebSocket scopes
(apps.realtime.addresses) alike."""

import functools
import ipaddress
import logging

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
        _warn_untrusted_forwarder(peer)
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


def _warn_untrusted_forwarder(peer: str) -> None:
    """Check the deployment's assumption once per process: a load balancer left out of
    TRUSTED_PROXIES would make every caller share its address (and its rate limits)."""
    global _warned
    if settings.PRODUCTION and not _warned:
        _warned = True
        logger.warning(
            "X-Forwarded-For from %s ignored: it is not in TRUSTED_PROXIES. If it is your load balancer, "
            "add its address or network there (docs/deploy.md); until then every caller it forwards "
            "shares its address and its rate limits.",
            peer,
        )
