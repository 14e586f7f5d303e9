"""Secrets at rest: Fernet tokens (AES-128-CBC with an HMAC-SHA256, from the `cryptography`
library) under the keys in WEBHOOK_SECRET_KEYS. Webhook signing secrets, payments' client secrets
and TOTP seeds are stored this way (named for the first of them, which the setting keeps).

Every listed key is tried for reading; the first one writes. Rotation: put a new key first, keep
the old ones after it, run `manage.py rotate_webhook_secrets` (re-encrypts every webhook secret
with the first key), then drop the old keys. The database alone never yields a secret.
"""

from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


class SecretUnreadable(Exception):
    """No key in WEBHOOK_SECRET_KEYS opens this token (a key was dropped too early, or the
    database was restored next to other keys)."""


@lru_cache(maxsize=8)
def _fernets(keys: tuple[str, ...]) -> tuple[Fernet, ...]:
    if not keys:
        raise ImproperlyConfigured("WEBHOOK_SECRET_KEYS is empty: give at least one Fernet key.")
    try:
        return tuple(Fernet(key) for key in keys)
    except ValueError as exc:
        raise ImproperlyConfigured(
            "WEBHOOK_SECRET_KEYS must be comma-separated Fernet keys (32 url-safe base64-encoded bytes; "
            'make one with: python -c "from cryptography.fernet import Fernet; print(Fernet.generate_key().decode())")'
        ) from exc


@lru_cache(maxsize=8)
def _box_for(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet(list(_fernets(keys)))


def _keys() -> tuple[str, ...]:
    """As configured now (read per call, so a settings override in a test applies)."""
    return tuple(settings.WEBHOOK_SECRET_KEYS)


def box() -> MultiFernet:
    return _box_for(_keys())


def encrypt(secret: str) -> str:
    return box().encrypt(secret.encode()).decode()


def decrypt(token: str) -> str:
    try:
        return box().decrypt(token.encode()).decode()
    except InvalidToken as exc:
        raise SecretUnreadable("no key in WEBHOOK_SECRET_KEYS opens this secret") from exc


def reencrypt(token: str) -> str:
    """The same secret under the first (newest) key."""
    try:
        return box().rotate(token.encode()).decode()
    except InvalidToken as exc:
        raise SecretUnreadable("no key in WEBHOOK_SECRET_KEYS opens this secret") from exc


def is_current(token: str) -> bool:
    """True if the first key alone opens the token (rotation has nothing to do for it)."""
    try:
        _fernets(_keys())[0].decrypt(token.encode())
    except InvalidToken:
        return False
    return True
