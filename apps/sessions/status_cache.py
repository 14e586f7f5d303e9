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

from collections.abc import Callable, Mapping
from typing import Any, cast

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from apps.core.cache import increment
from apps.core.models import DomainEvent
from apps.sessions.domain_events import SessionEvent

GENERATION_SECONDS = 24 * 3600  # outlives any session; a lost counter only costs a miss


def _copy_key(public_id: str) -> str:
    return f"session-status:{public_id}"


def _generation_key(public_id: str) -> str:
    return f"session-generation:{public_id}"


def copy_keys(public_id: str) -> list[str]:
    """The cache keys a poll reads: the copy and the session's current generation."""
    return [_copy_key(public_id), _generation_key(public_id)]


def current_copy(cached: dict[str, Any], *, kiosk_id: int, public_id: str) -> Mapping[str, object] | None:
    """The copied body in `cached` (what was found of `copy_keys`) if it is current and kiosk
    `kiosk_id`'s, else None (the poll reads the database: `status_body`)."""
    copy, generation = cached.get(_copy_key(public_id)), cached.get(_generation_key(public_id))
    if copy is not None and copy["generation"] == generation and copy["kiosk_id"] == kiosk_id:
        return cast(Mapping[str, object], copy["body"])  # Any: what the cache holds is untyped
    return None


def status_body(*, kiosk_id: int, public_id: str, read: Callable[[], Mapping[str, object]]) -> Mapping[str, object]:
    """The session's status body for kiosk `kiosk_id`: the cached copy while current, else
    `read()` (the database; it raises for a session that is not this kiosk's) stored anew."""
    cached = cache.get_many(copy_keys(public_id))
    body = current_copy(cached, kiosk_id=kiosk_id, public_id=public_id)
    if body is not None:
        return body
    body = read()
    cache.set(
        _copy_key(public_id),
        {"generation": cached.get(_generation_key(public_id)), "kiosk_id": kiosk_id, "body": body},
        timeout=settings.KIOSK_STATUS_COPY_SECONDS,
    )
    return body


def session_moved(public_id: str) -> None:
    """Every transition calls this in its transaction (through forget_status): no copy read
    before it is served again. The bump at emit keeps a copy read before the change from being
    served once it commits, even if the process dies before its commit callbacks; the bump at
    commit drops a copy read while the change was in flight. A rollback costs one cache miss."""
    key = _generation_key(public_id)
    increment(key, GENERATION_SECONDS)
    transaction.on_commit(lambda: increment(key, GENERATION_SECONDS))


def forget_status(
    event: SessionEvent,
    recorded: DomainEvent | None = None,
) -> None:
    """Subscriber of every session transition (config/event_subscribers.py)."""
    session_moved(event.session.public_id)
