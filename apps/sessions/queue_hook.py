"""The status body's `queue` comes from routing, which sessions does not import: routing registers
its reader here when the app is ready (apps/routing/apps.py). Without it, `queue` is null."""

from collections.abc import Callable

from apps.sessions.bodies import QueueBody
from apps.sessions.models import Session

QueueReader = Callable[[Session], QueueBody | None]

_reader: list[QueueReader] = []  # at most one: the last registered


def register_queue_reader(reader: QueueReader) -> None:
    _reader[:] = [reader]


def queue_of(session: Session) -> QueueBody | None:
    """The waiting line's body for the session (null unless it is pending)."""
    return _reader[0](session) if _reader else None
