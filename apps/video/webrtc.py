"""The self-hosted provider's credentials (VIDEO_PROVIDER = "webrtc"): a signed grant to one
session's signalling, and the ICE servers with short-lived TURN credentials.

TURN credentials follow the shared-secret scheme coturn checks with `use-auth-secret` /
`static-auth-secret` (the "TURN REST API" draft): username = "<expiry unix time>:<uid>",
credential = base64(HMAC-SHA1(secret, username)). coturn refuses the username after that time,
so nothing is stored and nothing has to be revoked.
"""

import base64
import hashlib
import hmac
from datetime import datetime
from typing import TypedDict

from django.conf import settings
from django.core import signing

APP_ID = "webrtc"  # the token answer's `app_id`: says which provider issued it
_GRANT_SALT = "video.webrtc.grant"


def turn_credentials(*, secret: str, uid: int, expires_at: int) -> tuple[str, str]:
    """(username, credential) coturn accepts until `expires_at` (unix seconds)."""
    username = f"{expires_at}:{uid}"
    digest = hmac.new(secret.encode(), username.encode(), hashlib.sha1).digest()
    return username, base64.b64encode(digest).decode("ascii")


def ice_servers(*, uid: int, expires_at: datetime) -> list[dict[str, object]]:
    """RTCPeerConnection's `iceServers` for one participant: the STUN URLs, and the TURN URLs
    with credentials that expire with its token. Empty on a LAN (host candidates suffice)."""
    servers: list[dict[str, object]] = []
    if settings.VIDEO_STUN_URLS:
        servers.append({"urls": list(settings.VIDEO_STUN_URLS)})
    if settings.VIDEO_TURN_URLS:
        username, credential = turn_credentials(
            secret=settings.VIDEO_TURN_SECRET, uid=uid, expires_at=int(expires_at.timestamp())
        )
        servers.append({"urls": list(settings.VIDEO_TURN_URLS), "username": username, "credential": credential})
    return servers


def grant(*, channel: str, uid: int, expires_at: datetime) -> str:
    """The token: our signature over (channel, uid, expiry). The signalling channel's auth applies
    the rule it was issued under (the session's kiosk or current agent, while live) on every
    subscription; the grant says the same thing to anyone holding the server's key."""
    return signing.dumps({"channel": channel, "uid": uid, "exp": int(expires_at.timestamp())}, salt=_GRANT_SALT)


class Grant(TypedDict):
    channel: str
    uid: int
    exp: int  # unix seconds


def read_grant(token: str) -> Grant:
    """The grant's fields; raises signing.BadSignature for a forged or altered token."""
    fields: Grant = signing.loads(token, salt=_GRANT_SALT)  # signed by grant() above: its shape
    return fields
