from celery import shared_task
from django.conf import settings

from apps.sessions import agent_presence, offers, services


@shared_task(name="sessions.abandon_stale", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def abandon_stale_sessions() -> int:
    return services.sessions_abandon_stale(older_than_seconds=settings.SESSION_PENDING_TIMEOUT)


@shared_task(name="sessions.dispatch_offers", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def dispatch_offers() -> int:
    """After a change that can free an agent or add a waiting session (offers.dispatch_soon)."""
    return offers.offers_dispatch()


@shared_task(name="sessions.route", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def route() -> int:
    """The routing tick (beat, every ROUTING_TICK_SECONDS): presence, lapsed offers, new offers.
    A timer lost with a dead process is this tick's next run."""
    agent_presence.presence_tick()
    return offers.offers_dispatch()
