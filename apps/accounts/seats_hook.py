"""An agent's `capacity` and `sessions_held` (GET /api/user and the token API's user) come from
routing, which accounts does not import: routing registers its reader when the app is ready
(apps/routing/apps.py). Without it, an agent has the default capacity and holds nothing."""

from collections.abc import Callable

from django.conf import settings

from apps.accounts.models import User

SeatsReader = Callable[[User], tuple[int, int]]  # (capacity, sessions held)

_reader: list[SeatsReader] = []  # at most one: the last registered


def register_seats_reader(reader: SeatsReader) -> None:
    _reader[:] = [reader]


def seats_of(user: User) -> tuple[int, int]:
    return _reader[0](user) if _reader else (settings.ROUTING_AGENT_CAPACITY, 0)
