from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction

from apps.core import jobs
from apps.routing import agent_presence, offers
from apps.routing.models import Offer, OfferStatus
from apps.sessions.models import Session, SessionStatus

PRESENCE_STEP_KEY = "routing:presence-step"  # held for ROUTING_PRESENCE_SECONDS after a presence step


@shared_task(name="routing.dispatch_offers", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def dispatch_offers() -> int:
    """After a change that can free an agent or add a waiting session (dispatch_soon)."""
    return offers.offers_dispatch()


@shared_task(name="routing.route", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def route() -> int:
    """The routing tick (beat, every ROUTING_TICK_SECONDS): presence (every ROUTING_PRESENCE_SECONDS),
    lapsed offers, new offers. A timer lost with a dead process is this tick's next run. With
    nothing waiting and no offer live it reads two rows' existence and writes nothing: the
    dispatch would find nothing to do."""
    if presence_step_due():
        agent_presence.presence_tick()
    if nothing_to_route():
        return 0
    return offers.offers_dispatch()


def presence_step_due() -> bool:
    """The presence step runs once per ROUTING_PRESENCE_SECONDS across every process (a cache key
    held that long; an unreachable cache answers "due"). It keeps `last_seen_at` of the agents
    holding their channel within AGENT_SIGNED_IN_SECONDS and sets offline those gone for
    AGENT_GONE_SECONDS; the dispatch reads the channels held itself, so a waiting customer's
    offers do not wait for it."""
    seconds = settings.ROUTING_PRESENCE_SECONDS
    return seconds <= settings.ROUTING_TICK_SECONDS or cache.add(PRESENCE_STEP_KEY, 1, timeout=seconds)


def nothing_to_route() -> bool:
    """No session waits and no offer is live: offers_dispatch would close, withdraw and make nothing."""
    return not (
        Session.objects.filter(status=SessionStatus.PENDING).exists()
        or Offer.objects.filter(status=OfferStatus.LIVE).exists()
    )


def dispatch_soon() -> None:
    """Run offers_dispatch after the current transaction commits, outside the request, unless
    nothing waits and no offer is live then (checked after the commit; a change that adds one
    calls this itself after its own commit)."""
    transaction.on_commit(_dispatch_if_needed)


def _dispatch_if_needed() -> None:
    if not nothing_to_route():
        jobs.enqueue(dispatch_offers)
