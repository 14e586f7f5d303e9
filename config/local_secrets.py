"""Secrets for local and test runs (APP_ENV=local or test): generated once into an ignored
file, never committed.

Production (APP_ENV=production, or no APP_ENV with DATABASE_URL/REDIS_URL set) takes every
secret from the environment instead and never calls this: it writes nothing at import.
"""

import base64
import json
import os
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
        private_file(path)
        path.write_text(json.dumps(stored, indent=2))
    private_file(path)
    return stored


def private_file(path: Path) -> None:
    """Make `path` readable and writable by this user only (0600), creating it empty if absent:
    created with that mode, never world-readable for a moment. The embedded default's files under
    var/ (secrets.json, the SQLite database, whose journal and WAL files SQLite creates with the
    database's own mode) hold secrets and every tenant's data."""
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    path.chmod(0o600)


def private_dir(path: Path) -> None:
    """Create `path` (and parents) if absent, and make it this user's only (0700)."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
