"""A report scene with hand-computed figures (docs/reports.md), shared by the API, panel and CSV
tests: a Europe/Madrid business on the weekend summer time ends (Sunday 2026-10-25, when 03:00
CEST becomes 02:00 CET, so that day has 25 hours and "02:30" happens twice).

Range 2026-10-24..2026-10-25 (local) = [2026-10-23T22:00Z, 2026-10-25T23:00Z).

  S1 23:59:50 Sat (CEST), es-ES, K1: Ana answers after 20 s, 300 s handle, paid 2000
     (2 x Burger 800 "Large", 1 x Fries 400)
  S2 00:00:00 Sun (CEST), en-US, K1: Ana after 40 s, 600 s handle, paid 1500 (Burger 800
     "Large", Salad 700), 500 refunded; offered to Ana (accepted) and Ben (withdrawn)
  S3 02:30 Sun (CEST), es-ES, K2: nobody answers (offered to Ana and Ben: both missed), the
     customer leaves after 60 s: abandoned waiting
  S4 02:30 Sun again (CET), en-GB, K2: Ben answers after 10 s (offer accepted), transfers it
     to Ana, the customer leaves 120 s after the answer: abandoned after answer; a draft cart
  S5 23:59:59 Sun (CET), de-DE, K1: self-service (no agent), paid 1000 (2 x Fries 400 "Ketchup")
  Outside: S0 at 23:59:59 Fri, S6 at 00:00 Mon (paid 9999), and another owner's paid session.
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from apps.routing.models import Offer
from apps.sessions.models import Assignment
from tests import factories

FROM, TO = "2026-10-24", "2026-10-25"


def utc(*parts) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@dataclass
class Scene:
    business: object
    ana: object
    ben: object
    k1: object
    k2: object
    sessions: dict = field(default_factory=dict)
    orders: dict = field(default_factory=dict)
    items: dict = field(default_factory=dict)


def _session(scene, name, kiosk, created_at, locale, *, agent=None, wait=None, handle=None, status="completed"):
    accepted_at = created_at + timedelta(seconds=wait) if wait is not None else None
    if accepted_at is not None:
        ended_at = accepted_at + timedelta(seconds=handle)
    else:
        ended_at = created_at + timedelta(seconds=handle or 60)
    session = factories.SessionFactory(
        kiosk=kiosk,
        agent=agent,
        status=status,
        customer_locale=locale,
        created_at=created_at,
        accepted_at=accepted_at,
        ended_at=ended_at,
        end_reason="completed" if status == "completed" else "customer_abandoned",
    )
    scene.sessions[name] = session
    return session


def _order(scene, name, session, *, status, total, lines):
    created_at = (session.accepted_at or session.created_at) + timedelta(seconds=30)
    order = factories.OrderFactory(
        session=session, status=status, total_cents=total, subtotal_cents=total, created_at=created_at
    )
    for position, (item, quantity, price, modifiers) in enumerate(lines):
        factories.OrderLineFactory(
            order=order,
            position=position,
            menu_item=scene.items.get(item),
            name=item,
            quantity=quantity,
            unit_price_cents=price,
            modifiers=modifiers,
        )
    scene.orders[name] = order
    return order


def _offer(session, agent, status):
    return Offer.objects.create(
        session=session,
        agent=agent,
        status=status,
        created_at=session.created_at,
        expires_at=session.created_at + timedelta(seconds=15),
        closed_at=session.created_at + timedelta(seconds=15),
    )


def _assign(session, agent, via, started_at, ended_at):
    return Assignment.objects.create(session=session, agent=agent, via=via, started_at=started_at, ended_at=ended_at)


LARGE = [{"group": "Size", "value": "Large", "option_id": 11}]
KETCHUP = [{"group": "Sauce", "value": "Ketchup", "option_id": 21}]


def build_scene() -> Scene:
    business = factories.BusinessFactory(timezone="Europe/Madrid", name="Madrid")
    owner = business.owner
    scene = Scene(
        business=business,
        ana=factories.AgentFactory(owner=owner, name="Ana"),
        ben=factories.AgentFactory(owner=owner, name="Ben"),
        k1=factories.KioskFactory(business=business, name="K1"),
        k2=factories.KioskFactory(business=business, name="K2"),
    )
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    for name in ("Burger", "Fries", "Salad"):
        scene.items[name] = factories.MenuItemFactory(category=category, name=name)
    ana, ben, k1, k2 = scene.ana, scene.ben, scene.k1, scene.k2

    s0 = _session(scene, "S0", k1, utc(2026, 10, 23, 21, 59, 59), "en-US", agent=ana, wait=5, handle=60)
    _order(scene, "S0", s0, status="completed", total=9999, lines=[("Burger", 9, 800, LARGE)])

    s1 = _session(scene, "S1", k1, utc(2026, 10, 24, 21, 59, 50), "es-ES", agent=ana, wait=20, handle=300)
    _order(scene, "S1", s1, status="confirmed", total=2000, lines=[("Burger", 2, 800, LARGE), ("Fries", 1, 400, [])])
    _assign(s1, ana, "accept", s1.accepted_at, s1.ended_at)

    s2 = _session(scene, "S2", k1, utc(2026, 10, 24, 22, 0, 0), "en-US", agent=ana, wait=40, handle=600)
    o2 = _order(
        scene, "S2", s2, status="completed", total=1500, lines=[("Burger", 1, 800, LARGE), ("Salad", 1, 700, [])]
    )
    factories.RefundFactory(payment=factories.PaymentFactory(order=o2, status="succeeded"), amount_cents=500)
    _assign(s2, ana, "accept", s2.accepted_at, s2.ended_at)
    _offer(s2, ana, "accepted")
    _offer(s2, ben, "withdrawn")

    s3 = _session(scene, "S3", k2, utc(2026, 10, 25, 0, 30), "es-ES", handle=60, status="abandoned")
    _offer(s3, ana, "missed")
    _offer(s3, ben, "missed")

    s4 = _session(
        scene, "S4", k2, utc(2026, 10, 25, 1, 30), "en-GB", agent=ana, wait=10, handle=120, status="abandoned"
    )
    _order(scene, "S4", s4, status="draft", total=4000, lines=[("Burger", 5, 800, LARGE)])
    handed_over = s4.accepted_at + timedelta(seconds=50)
    _assign(s4, ben, "accept", s4.accepted_at, handed_over)
    _assign(s4, ana, "transfer", handed_over, s4.ended_at)
    _offer(s4, ben, "accepted")

    s5 = _session(scene, "S5", k1, utc(2026, 10, 25, 22, 59, 59), "de-DE", handle=200)
    _order(scene, "S5", s5, status="paid", total=1000, lines=[("Fries", 2, 400, KETCHUP)])

    s6 = _session(scene, "S6", k1, utc(2026, 10, 25, 23, 0, 0), "en-US", agent=ana, wait=5, handle=60)
    _order(scene, "S6", s6, status="completed", total=9999, lines=[("Salad", 9, 700, [])])

    # Another owner, same instants: never counted.
    stranger = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=factories.BusinessFactory(timezone="Europe/Madrid")),
        created_at=utc(2026, 10, 24, 12, 0),
        accepted_at=utc(2026, 10, 24, 12, 0, 5),
        ended_at=utc(2026, 10, 24, 12, 5),
        status="completed",
        customer_locale="en-US",
    )
    factories.OrderFactory(session=stranger, status="completed", total_cents=7777)
    return scene


EMPTY_METRICS = {
    "sessions_started": 0,
    "sessions_answered": 0,
    "answer_seconds_p50": None,
    "answer_seconds_p90": None,
    "answered_within_30s_share": None,
    "abandoned_waiting": 0,
    "abandoned_after_answer": 0,
    "handle_seconds_avg": None,
    "handle_seconds_p90": None,
    "transfers": 0,
    "paid_orders": 0,
    "conversion": None,
    "revenue_cents": 0,
    "average_order_cents": None,
    "items_per_order": None,
    "refunds_cents": 0,
    "self_service_orders": 0,
    "self_service_share": None,
    "offers": 0,
    "offers_missed": 0,
    "offer_acceptance": None,
}

# The range's totals, computed by hand from the scene above.
TOTALS = {
    "sessions_started": 5,  # S1..S5
    "sessions_answered": 3,  # S1 20 s, S2 40 s, S4 10 s
    "answer_seconds_p50": 20.0,
    "answer_seconds_p90": 36.0,  # 20 + 0.8 x (40 - 20)
    "answered_within_30s_share": 0.4,  # S1, S4 of 5
    "abandoned_waiting": 1,  # S3
    "abandoned_after_answer": 1,  # S4
    "handle_seconds_avg": 340.0,  # (300 + 600 + 120) / 3
    "handle_seconds_p90": 540.0,  # 300 + 0.8 x (600 - 300)
    "transfers": 1,  # S4 Ben -> Ana
    "paid_orders": 3,  # S1, S2, S5 (S4's draft is not)
    "conversion": 0.6667,  # S1, S2 paid of 3 answered
    "revenue_cents": 4500,
    "average_order_cents": 1500,
    "items_per_order": 2.33,  # 3 + 2 + 2 items / 3
    "refunds_cents": 500,
    "self_service_orders": 1,  # S5
    "self_service_share": 0.3333,
    "offers": 5,
    "offers_missed": 2,
    "offer_acceptance": 0.4,  # 2 accepted of 5
}
