"""A cached copy of each session's status body, for the kiosk poll.

A waiting kiosk polls every 2 s and the body changes only when the session moves. The copy is
stored with the session's *generation*, a counter that every transition bumps (inside its
transaction and again after commit). The poll reads the copy and the generation together and
serves the copy only when its generation is the current one; a poll that misses reads the
generation before the database, so a copy read from a row that was about to change carries the
old generation and is never served after the change, however the two interleave.

Agent name and avatar edits do not move the session: they show within the copy's lifetime
(settings.KIOSK_STATUS_COPY_SECONDS). While Redis is unreachable the cache fails open and every
poll reads the database.
"""

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from apps.core.cache import increment

GENERATION_SECONDS = 24 * 3600  # outlives any session; a lost counter only costs a miss


def _copy_key(public_id: str) -> str:
    return f"session-status:{public_id}"


def _generation_key(public_id: str) -> str:
    return f"session-generation:{public_id}"


def status_body(*, kiosk_id: int, public_id: str, read: Callable[[], dict]) -> dict:
    """The session's status body for kiosk `kiosk_id`: the cached copy while current, else
    `read()` (the database; it raises for a session that is not this kiosk's) stored anew."""
    copy_key, generation_key = _copy_key(public_id), _generation_key(public_id)
    cached = cache.get_many([copy_key, generation_key])
    generation, copy = cached.get(generation_key), cached.get(copy_key)
    if copy is not None and copy["generation"] == generation and copy["kiosk_id"] == kiosk_id:
        return copy["body"]
    body = read()
    cache.set(
        copy_key,
        {"generation": generation, "kiosk_id": kiosk_id, "body": body},
        timeout=settings.KIOSK_STATUS_COPY_SECONDS,
    )
    return body


def session_moved(public_id: str) -> None:
    """Every transition calls this in its transaction: no copy read before it is served again."""
    key = _generation_key(public_id)
    increment(key, GENERATION_SECONDS)
    transaction.on_commit(lambda: increment(key, GENERATION_SECONDS))
