"""Delivery bodies and signatures (spec 6.1, plus Standard Webhooks headers).

X-Service-Signature: lowercase hex HMAC-SHA256 of the raw body, keyed with the subscription
secret (its UTF-8 bytes). Standard Webhooks: `webhook-signature: v1,<base64 HMAC-SHA256 of
"{id}.{timestamp}.{body}">` with the same key, signed by the `standardwebhooks` library, so a
receiver verifies with that library using `whsec_` + base64(secret bytes).
"""

import base64
import hashlib
import hmac
import json
from datetime import UTC, datetime

from standardwebhooks.webhooks import Webhook

USER_AGENT = "Service-Webhook/1.0"


def body_bytes(event_name: str, data: dict[str, object], timestamp: str) -> bytes:
    return json.dumps({"event": event_name, "data": data, "timestamp": timestamp}, separators=(",", ":")).encode()


def service_signature(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def standard_signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    # The library signs text; the body is JSON with ASCII escapes (body_bytes), so decoding it and
    # the library's encoding back give the same bytes.
    moment = datetime.fromtimestamp(timestamp, tz=UTC)
    return Webhook(secret.encode()).sign(msg_id=message_id, timestamp=moment, data=body.decode())


def standard_webhooks_key(secret: str) -> str:
    """The key a receiver passes to the standardwebhooks library."""
    return "whsec_" + base64.b64encode(secret.encode()).decode()


def headers(*, secret: str, event_name: str, delivery_id: int, body: bytes, now_unix: int) -> dict[str, str]:
    message_id = f"msg_{delivery_id}"
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-Service-Event": event_name,
        "X-Service-Signature": service_signature(secret, body),
        "X-Service-Delivery": str(delivery_id),
        "webhook-id": message_id,
        "webhook-timestamp": str(now_unix),
        "webhook-signature": standard_signature(secret, message_id, now_unix, body),
    }
