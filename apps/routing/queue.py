"""The waiting line a kiosk customer sees: `queue {position, estimated_wait_seconds,
agents_available}` in the status body while the session is pending (docs/kiosk-and-agent.md
"The queue").

- position: 1-based among the owner's waiting sessions in the router's order, those in the
  kiosk's accessible mode first, then the oldest (the owner's kiosks share its agents and the
  platform's);
- agents_available: the pool's agents signed in and available (free or holding an offer);
- self_service_after_seconds: the owner's self-service threshold: past this wait (or estimate),
  or with no agent available, the kiosk offers to order alone;
- estimated_wait_seconds: from the owner's recent sessions (the last RECENT of the last hour):
  their answer times (with the size of the wave each answered) and handle times, the languages
  of the available agents, and how long each busy agent has been in its session, as
  apps/routing/wait_estimate.py says; null with no recent answered session, or with nobody
  signed in. bench/shift.py measures it on a simulated shift (docs/scaling.md).

The body changes only when the line changes (a session joins or leaves it, offers are made, an
agent's status changes): `queue_changed` then drops every waiting kiosk's cached status copy and
sends it QueueUpdated, so the poll's cached copy is never stale.
"""

from datetime import datetime, timedelta

from django.db.models import Count, Exists, OuterRef, Q, Subquery
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import kiosk_channel
from apps.routing.models import Offer, OfferStatus
from apps.routing.router import primary_language
from apps.routing.routing_settings import routing_for_owner
from apps.routing.signed_in import agents_holding_channel
from apps.routing.signed_in import signed_in as signed_in_filter
from apps.routing.wait_estimate import Pool, estimate_wait
from apps.sessions.bodies import QueueBody
from apps.sessions.models import Session, SessionStatus
from apps.sessions.status_cache import session_moved

__all__ = ["Pool", "estimate_wait", "queue_changed", "queue_of", "queues_of_owner"]

RECENT = 20
RECENT_ANSWERS = 100  # answer times by wave size: enough waves of one and two among them
RECENT_WINDOW = timedelta(hours=1)


def _pool(owner_id: int, now: datetime) -> Pool:
    agents = User.objects.filter(
        Q(owner_id=owner_id) | Q(owner__isnull=True),
        signed_in_filter(now, agents_holding_channel()),
        is_agent=True,
        is_active=True,
    )
    at_work = [
        frozenset(languages or ())
        for languages in agents.filter(agent_status__in=(AgentStatus.AVAILABLE, AgentStatus.BUSY)).values_list(
            "languages", flat=True
        )
    ]
    signed_in = len(at_work)
    holding = Exists(Offer.objects.filter(agent=OuterRef("pk"), status=OfferStatus.LIVE))
    available = [
        (held, frozenset(languages or ()))
        for held, languages in agents.filter(agent_status=AgentStatus.AVAILABLE)
        .annotate(holding=holding)
        .values_list("holding", "languages")
    ]
    since = now - RECENT_WINDOW
    recent = list(
        Session.objects.filter(owner_id=owner_id, accepted_at__gte=since)
        .order_by("-accepted_at")
        .values_list("created_at", "accepted_at", "ended_at")[:RECENT]
    )
    answers = [((accepted - created).total_seconds(), 1) for created, accepted, _ in recent if accepted is not None]
    handles = [(ended - accepted).total_seconds() for _, accepted, ended in recent if ended and accepted]
    wave = Offer.objects.filter(session=OuterRef("session"), created_at=OuterRef("created_at"))
    reactions = [
        ((closed - made).total_seconds(), size or 1)
        for made, closed, size in Offer.objects.filter(
            session__owner_id=owner_id, status=OfferStatus.ACCEPTED, closed_at__gte=since, transfer_from__isnull=True
        )
        .annotate(wave=Subquery(wave.values("session").annotate(n=Count("pk")).values("n")[:1]))
        .order_by("-closed_at")
        .values_list("created_at", "closed_at", "wave")[:RECENT_ANSWERS]
        if closed is not None
    ]
    serving = Session.objects.filter(
        agent__in=agents.filter(agent_status=AgentStatus.BUSY), status__in=(SessionStatus.ACTIVE, SessionStatus.PAYMENT)
    ).values_list("accepted_at", flat=True)
    if reactions:
        answers = reactions  # a customer with a free agent waits for the agent to answer, not for a queue
    routing = routing_for_owner(owner_id)
    return Pool(
        available=len(available),
        signed_in=signed_in,
        answer_seconds=sum(seconds for seconds, _ in answers) / len(answers) if answers else None,
        handle_seconds=sum(handles) / len(handles) if handles else None,
        serving_for=tuple((now - accepted).total_seconds() for accepted in serving if accepted is not None),
        answers=tuple(answers),
        handles=tuple(handles),
        available_languages=tuple(languages for _, languages in available),
        free_languages=tuple(languages for held, languages in available if not held),
        any_language_after=routing.any_language_after_seconds,
        at_work_languages=tuple(at_work),
        offer_size=routing.offer_size,
    )


def queues_of_owner(owner_id: int, *, now: datetime | None = None) -> dict[int, QueueBody]:
    """Each waiting session of the owner (by pk) with its queue body."""
    now = now or timezone.now()
    waiting = list(
        Session.objects.filter(owner_id=owner_id, status=SessionStatus.PENDING)
        .order_by("-accessible_mode", "created_at", "pk")  # the router's order (router.session_order)
        .values_list("pk", "customer_locale", "created_at")
    )
    if not waiting:
        return {}
    pool = _pool(owner_id, now)
    self_service_after = routing_for_owner(owner_id).self_service_after_seconds
    return {
        pk: {
            "position": position,
            "estimated_wait_seconds": estimate_wait(
                position, pool, language=primary_language(locale), waited=(now - created).total_seconds()
            ),
            "agents_available": pool.available,
            "self_service_after_seconds": self_service_after,
        }
        for position, (pk, locale, created) in enumerate(waiting, start=1)
    }


def queue_of(session: Session, *, now: datetime | None = None) -> QueueBody | None:
    """The status body's `queue`: null unless the session is pending."""
    if session.status != SessionStatus.PENDING:
        return None
    now = now or timezone.now()
    # Ahead in the router's order (router.session_order): accessible-mode sessions first, then the oldest.
    older = Q(created_at__lt=session.created_at) | Q(created_at=session.created_at, pk__lt=session.pk)
    same_mode = Q(accessible_mode=session.accessible_mode) & older
    ahead = Session.objects.filter(owner_id=session.owner_id, status=SessionStatus.PENDING).filter(
        same_mode if session.accessible_mode else same_mode | Q(accessible_mode=True)
    )
    position = ahead.count() + 1
    pool = _pool(session.owner_id, now)
    return {
        "position": position,
        "estimated_wait_seconds": estimate_wait(
            position,
            pool,
            language=primary_language(session.customer_locale),
            waited=(now - session.created_at).total_seconds(),
        ),
        "agents_available": pool.available,
        "self_service_after_seconds": routing_for_owner(session.owner_id).self_service_after_seconds,
    }


def queue_changed(event: Event, recorded: DomainEvent | None = None) -> None:
    """Subscriber of everything that moves an owner's line: every waiting kiosk's cached status
    copy is dropped (now and at commit) and each hears its new place (QueueUpdated, on commit)."""
    owner_id = event.owner_id
    if owner_id is None:  # a platform agent: no one owner's line (the next change of each tells it)
        return
    queues = queues_of_owner(owner_id)
    if not queues:
        return
    sessions = Session.objects.filter(pk__in=queues).values_list("pk", "public_id", "kiosk_id")
    for pk, public_id, kiosk_id in sessions:
        session_moved(public_id)
        broadcast([kiosk_channel(kiosk_id)], "QueueUpdated", {"session_id": public_id, "queue": queues[pk]})
