"""Where webhooks may be sent: https in production, and never to private, loopback or
link-local addresses unless WEBHOOK_ALLOW_PRIVATE_TARGETS. Checked when a subscription is
created and again before every attempt, so a name that later resolves inwards (DNS
rebinding) is still refused."""

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings


class TargetRefused(Exception):
    pass


def _is_internal(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%")[0])
    return not ip.is_global or ip.is_multicast


def refuses_address(address: str) -> bool:
    """True for an address deliveries may not connect to (checked on each new connection)."""
    return not settings.WEBHOOK_ALLOW_PRIVATE_TARGETS and _is_internal(address)


def check_url(url: str, *, resolve: bool = True) -> None:
    try:
        parts = urlsplit(url)
        port = parts.port  # ValueError for a port outside 0-65535 or not a number
    except ValueError:
        raise TargetRefused("The URL is not valid (check its port).") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("Use an absolute http(s) URL.")
    if settings.PRODUCTION and parts.scheme != "https":
        raise TargetRefused("Receivers must use https.")
    if settings.WEBHOOK_ALLOW_PRIVATE_TARGETS or not resolve:
        return
    try:
        infos = socket.getaddrinfo(parts.hostname, port or (443 if parts.scheme == "https" else 80))
    except (socket.gaierror, UnicodeError) as exc:
        raise TargetRefused(f"{parts.hostname} does not resolve.") from exc
    if any(_is_internal(str(info[4][0])) for info in infos):
        raise TargetRefused(f"{parts.hostname} resolves to a private, loopback or link-local address.")
