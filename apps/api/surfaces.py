"""The API surfaces and which URL paths belong to each (DESIGN.md URL map)."""

from enum import StrEnum


class Surface(StrEnum):
    KIOSK = "kiosk"  # /api/public/*: device headers, envelope with request_id
    AGENT = "agent"  # /api/*: cookie session + X-XSRF-TOKEN
    TOKEN = "token"  # /api/auth/*, /api/v1/*: bearer token
    OWNER = "owner"  # /api/owner/*: OAuth client-credentials API keys (bearer access token)


KIOSK_PREFIX = "/api/public/"
TOKEN_PREFIXES = ("/api/v1/", "/api/auth/")
OWNER_PREFIX = "/api/owner/"
AGENT_PREFIX = "/api/"


def surface_for_path(path: str) -> Surface | None:
    """The surface serving a path, or None for pages outside the APIs."""
    if path.startswith(KIOSK_PREFIX) or path == KIOSK_PREFIX.rstrip("/"):
        return Surface.KIOSK
    if path.startswith(TOKEN_PREFIXES):
        return Surface.TOKEN
    if path.startswith(OWNER_PREFIX) or path == OWNER_PREFIX.rstrip("/"):
        return Surface.OWNER
    if path.startswith(AGENT_PREFIX) or path == AGENT_PREFIX.rstrip("/"):
        return Surface.AGENT
    return None
