"""What a connection may not do to the server (docs/realtime.md "Limits and refusals"): upgrade
over plain HTTP when TLS is required, send frames it cannot parse (nesting deep enough to exhaust
the parser's stack included), hold more than its share of subscriptions."""

import json

from asgiref.typing import WebSocketScope
from django.conf import settings


class BadFrame(ValueError):
    """Not a protocol message: answered with 4302, the connection stays."""


def parse_json(text: str | bytes) -> object:
    """json.loads, with nesting too deep for the parser (`"[" * 100000`: RecursionError) as a bad
    frame like any other, not an error of the server."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadFrame(str(exc)) from None


def encoded(data: object) -> str | None:
    """A client event's data as the string it travels as (Pusher's wire form, compact as
    protocol.frame writes it): one string through the channel layer, where channels-redis's msgpack
    would refuse nesting past 511 levels that the parser took. None: too deep to encode here."""
    if isinstance(data, str):
        return data
    try:
        return json.dumps(data, separators=(",", ":"))
    except RecursionError:
        return None


def over_subscription_limit(held: int) -> bool:
    """Whether a connection holding `held` subscriptions may take no new one. Our apps hold a few
    each (a kiosk 2, a dashboard 1, the call link 1); the cap keeps one socket from growing the
    process without bound (every subscription costs a hub entry and a shared-state count)."""
    return held >= settings.REALTIME_MAX_SUBSCRIPTIONS_PER_CONNECTION


def came_over_tls(scope: WebSocketScope) -> bool:
    """The HTTP surfaces' rule (Django's request.is_secure()) for a WebSocket upgrade: with
    SECURE_PROXY_SSL_HEADER set (TRUST_PROXY) and the header present, the header says; otherwise
    the connection's own scheme. config/asgi.py has already removed X-Forwarded-Proto unless a
    trusted proxy sent it."""
    proxy_header = settings.SECURE_PROXY_SSL_HEADER
    if proxy_header:
        name, secure_value = proxy_header
        wanted = name.removeprefix("HTTP_").replace("_", "-").lower().encode("latin-1")
        for header, value in scope.get("headers") or ():
            if header.lower() == wanted:
                return value.decode("latin-1").split(",", 1)[0].strip() == secure_value
    return scope.get("scheme") in ("wss", "https")


def plain_upgrade_refused(scope: WebSocketScope) -> bool:
    return bool(settings.REQUIRE_TLS) and not came_over_tls(scope)
