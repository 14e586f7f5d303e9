from celery import shared_task

from apps.core import jobs
from apps.routing import agent_presence, offers


@shared_task(name="routing.dispatch_offers", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def dispatch_offers() -> int:
    """After a change that can free an agent or add a waiting session (dispatch_soon)."""
    return offers.offers_dispatch()


@shared_task(name="routing.route", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def route() -> int:
    """The routing tick (beat, every ROUTING_TICK_SECONDS): presence, lapsed offers, new offers
    (agents newly seen by the presence step among them). A timer lost with a dead process is this
    tick's next run."""
    agent_presence.presence_tick()
    return offers.offers_dispatch()


def dispatch_soon() -> None:
    """Run offers_dispatch after the current transaction commits, outside the request."""
    jobs.enqueue_on_commit(dispatch_offers)
