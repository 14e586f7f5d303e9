"""Secrets for local and test runs (APP_ENV=local or test): generated once into an ignored
file, never committed.

Production (APP_ENV=production, or no APP_ENV with DATABASE_URL/REDIS_URL set) takes every
secret from the environment instead and never calls this: it writes nothing at import.
"""

import base64
import json
import secrets
from pathlib import Path


def _generate() -> dict[str, str]:
    return {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "REALTIME_APP_ID": str(secrets.randbelow(900000) + 100000),
        "REALTIME_APP_KEY": secrets.token_hex(10),
        "REALTIME_APP_SECRET": secrets.token_hex(10),
        # The video provider issues app ids and certificates as 32 hexadecimal characters.
        "VIDEO_APP_ID": secrets.token_hex(16),
        "VIDEO_APP_CERTIFICATE": secrets.token_hex(16),
        # A Fernet key (32 random bytes, url-safe base64) for webhook signing secrets at rest.
        "WEBHOOK_SECRET_KEYS": base64.urlsafe_b64encode(secrets.token_bytes(32)).decode(),
    }


def load_or_create(path: Path) -> dict[str, str]:
    """Read the local secrets file, adding any secret it lacks."""
    stored: dict[str, str] = {}
    if path.exists():
        stored = json.loads(path.read_text())
    fresh = _generate()
    missing = {name: value for name, value in fresh.items() if name not in stored}
    if missing:
        stored.update(missing)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(stored, indent=2))
        path.chmod(0o600)
    return stored
