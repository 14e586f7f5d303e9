"""How the router sees the agents it may offer a session to, for the waiting sessions' offers
(apps/routing/offers.py) and a transfer's language wave (apps/routing/transfer.py) alike."""

from datetime import datetime

from django.db.models import QuerySet

from apps.accounts.models import User
from apps.routing.capacity import seats_of
from apps.routing.models import Offer, OfferStatus
from apps.routing.router import FreeAgent


def free_agents(pool: QuerySet[User], now: datetime) -> list[FreeAgent]:
    """The agents of `pool` (already the signed-in, available ones it may offer to) holding no
    live offer and with a seat free (for a chat at least; the router checks a video customer's
    seat), each with its seats and idle since its last session (never seen: idle from now)."""
    rows = list(
        pool.exclude(pk__in=Offer.objects.filter(status=OfferStatus.LIVE).values("agent_id")).values_list(
            "pk", "owner_id", "languages", "idle_since", "last_seen_at"
        )
    )
    seats = seats_of([row[0] for row in rows])
    return [
        FreeAgent(
            id=pk,
            owner_id=owner_id,
            languages=frozenset(languages or ()),
            idle_since=idle_since or last_seen_at or now,
            capacity=seats[pk].capacity,
            held=seats[pk].held,
        )
        for pk, owner_id, languages, idle_since, last_seen_at in rows
        if seats[pk].held.count < seats[pk].capacity
    ]
