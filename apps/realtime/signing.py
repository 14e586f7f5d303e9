"""Pusher's signatures: channel authorisation (what /broadcasting/auth returns and the WebSocket
checks), user sign-in (pusher:signin) and HTTP API request signing (what the `pusher` server
libraries send)."""

import hashlib
import hmac
import time
from collections.abc import Mapping

from django.conf import settings

HTTP_API_MAX_SKEW_SECONDS = 600


def _hmac_hex(secret: str, message: str) -> str:
    return hmac.new(secret.encode(), message.encode(), hashlib.sha256).hexdigest()


def channel_auth(
    socket_id: str, channel: str, channel_data: str | None = None, *, key: str | None = None, secret: str | None = None
) -> str:
    """`key:signature` over `socket_id:channel` (and `:channel_data` for presence, over the
    exact string the client will send back)."""
    key = key or settings.REALTIME_APP_KEY
    secret = secret or settings.REALTIME_APP_SECRET
    message = f"{socket_id}:{channel}" if channel_data is None else f"{socket_id}:{channel}:{channel_data}"
    return f"{key}:{_hmac_hex(secret, message)}"


def channel_auth_valid(auth: object, socket_id: str, channel: str, channel_data: str | None = None) -> bool:
    if not isinstance(auth, str):
        return False
    return hmac.compare_digest(auth.encode(), channel_auth(socket_id, channel, channel_data).encode())


def user_auth(socket_id: str, user_data: str) -> str:
    """`key:signature` over `socket_id::user::user_data` (pusher:signin; the server libraries'
    `authenticate_user`), over the exact user_data string the client sends."""
    return f"{settings.REALTIME_APP_KEY}:{_hmac_hex(settings.REALTIME_APP_SECRET, f'{socket_id}::user::{user_data}')}"


def user_auth_valid(auth: object, socket_id: str, user_data: str) -> bool:
    if not isinstance(auth, str):
        return False
    return hmac.compare_digest(auth.encode(), user_auth(socket_id, user_data).encode())


def http_api_request_error(
    *, method: str, path: str, params: Mapping[str, str], body: bytes, now: float | None = None
) -> str | None:
    """Why a Pusher HTTP API request is refused, or None when it is properly signed.

    The signature covers `METHOD\\npath\\n` plus every received query parameter except
    `auth_signature`, keys lower-cased and sorted, `key=value` joined by `&` (values as received,
    not re-encoded). `body_md5` is checked on its own, and the timestamp within 600 s of ours.
    """
    params = {name.lower(): value for name, value in params.items()}
    if params.get("auth_key") != settings.REALTIME_APP_KEY:
        return "Unknown auth_key."
    signature = params.pop("auth_signature", "")
    try:
        timestamp = int(params.get("auth_timestamp", ""))
    except ValueError:
        return "auth_timestamp is missing or not an integer."
    now = time.time() if now is None else now
    if abs(now - timestamp) > HTTP_API_MAX_SKEW_SECONDS:
        return f"auth_timestamp is more than {HTTP_API_MAX_SKEW_SECONDS} seconds from the server's clock."
    if body and not hmac.compare_digest(params.get("body_md5", ""), hashlib.md5(body).hexdigest()):  # noqa: S324
        return "body_md5 does not match the body."
    string_to_sign = "\n".join([method.upper(), path, "&".join(f"{k}={params[k]}" for k in sorted(params))])
    expected = _hmac_hex(settings.REALTIME_APP_SECRET, string_to_sign)
    if not hmac.compare_digest(signature.encode(), expected.encode()):
        return "Invalid auth_signature."
    return None
