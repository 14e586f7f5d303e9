"""Input helpers shared by every surface's views."""

import ipaddress

from django.conf import settings
from django.http import HttpRequest
from rest_framework import serializers


def validated(serializer_class: type[serializers.Serializer], data) -> dict:
    """Validate a request body or query with a small input serializer; errors become 422."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def client_ip(request: HttpRequest) -> str:
    """The caller's address, the one every rate limit, sign-in counter and log line keys on.

    With TRUSTED_PROXY_COUNT = 0 it is the socket's peer (REMOTE_ADDR) and X-Forwarded-For is
    ignored: anyone can send that header. Behind n trusted proxies each proxy appends the address
    it received the request from, so the n-th entry from the right is the address the outermost
    trusted proxy saw; everything left of it was written by the client. An entry that is not an
    IP address (a misconfigured proxy) falls back to REMOTE_ADDR, which keys all such callers
    together rather than on something the client chose. DRF's NUM_PROXIES is set to the same
    count, and our throttles' get_ident calls this."""
    remote_addr = request.META.get("REMOTE_ADDR", "")
    trusted = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if trusted <= 0 or not forwarded:
        return remote_addr
    hops = [hop.strip() for hop in forwarded.split(",")]
    candidate = hops[-min(trusted, len(hops))]
    try:
        return str(ipaddress.ip_address(candidate))
    except ValueError:
        return remote_addr
