"""A few weeks of generated history for a demo business, so the panel's Reports page has numbers
after `make run`: sessions answered, abandoned and transferred (with their Assignment rows), the
agents' signed-in stretches, self-service and agent sales (paid orders with lines), and a refund or
two.

Deterministic (a random generator seeded by the business's name, days counted back from today),
idempotent (a business that already has demo history gets none more) and fast (bulk_create).
Every generated session carries DEMO_HISTORY_NOTE in its notes, and its order number starts
with "H", so the panel and exports show it is demo data."""

import random
import zoneinfo
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.utils import timezone

from apps.accounts.models import Business, User
from apps.billing.models import Payment, PaymentStatus, Refund
from apps.kiosks.models import Kiosk
from apps.menu.models import MenuItem
from apps.orders.models import Order, OrderLine, OrderStatus
from apps.reports.models import AgentSignedIn
from apps.sessions.models import Assignment, AssignmentVia, EndReason, Session, SessionStatus

DEMO_HISTORY_NOTE = "Demo data: generated history (seed_demo)."
DAYS = 21
LOCALES = ("en-US", "en-US", "en-GB", "es-ES", "es-MX", "fr-FR")


@dataclass
class Plan:
    """One session's story: who answered when, how it ended, whether it was paid."""

    started: datetime
    locale: str
    handle: int  # seconds from the answer (or the start, unanswered) to the end
    status: SessionStatus = SessionStatus.COMPLETED
    agent: User | None = None
    wait: int | None = None  # seconds until an agent answered; None: none did
    paid: bool = False
    transferred_from: User | None = None  # the agent who handed it over to `agent`

    @property
    def accepted(self) -> datetime | None:
        return self.started + timedelta(seconds=self.wait) if self.wait is not None else None

    @property
    def ended(self) -> datetime:
        return (self.accepted or self.started) + timedelta(seconds=self.handle)


def seed_history(*, business: Business, kiosk: Kiosk, agents: list[User], days: int = DAYS) -> int:
    """Create the history unless the business has it; the number of sessions made."""
    if Session.objects.filter(business=business, notes=DEMO_HISTORY_NOTE).exists():
        return 0
    items = list(MenuItem.objects.filter(category__catalog__business=business).order_by("pk"))
    rng = random.Random(f"demo-history:{business.name}")
    zone = zoneinfo.ZoneInfo(business.timezone or "UTC")
    today = timezone.now().astimezone(zone).date()
    plans: list[Plan] = []
    for back in range(days, 0, -1):
        day = today - timedelta(days=back)
        for _ in range(rng.randint(6, 14)):
            local = datetime.combine(day, time(rng.randint(10, 21), rng.randint(0, 59), rng.randint(0, 59)), zone)
            plans.append(_plan(rng, local, agents, len(plans)))
    sessions = Session.objects.bulk_create(
        [_session(business, kiosk, plan, f"ses_hist_{business.pk}_{n:05d}") for n, plan in enumerate(plans)]
    )
    Assignment.objects.bulk_create(
        [row for session, plan in zip(sessions, plans, strict=True) for row in _assignments(session, plan)]
    )
    AgentSignedIn.objects.bulk_create(_shifts(business, agents, today, days, zone))
    paid = [(session, plan) for session, plan in zip(sessions, plans, strict=True) if plan.paid]
    orders = Order.objects.bulk_create(
        [_order(business, session, plan, n) for n, (session, plan) in enumerate(paid, start=1)]
    )
    lines = [_lines(rng, order, items) for order in orders]
    OrderLine.objects.bulk_create([line for order_lines in lines for line in order_lines])
    for order, order_lines in zip(orders, lines, strict=True):
        order.subtotal_cents = sum(line.quantity * line.unit_price_cents for line in order_lines)
        order.tax_cents = order.subtotal_cents * business.tax_rate_bps // 10_000
        order.total_cents = order.subtotal_cents + order.tax_cents
    Order.objects.bulk_update(orders, ["subtotal_cents", "tax_cents", "total_cents"])
    refunded = list(zip(orders, [plan for _, plan in paid], strict=True))[:: max(1, len(orders) // 2)][:2]
    _refunds(refunded)
    return len(sessions)


def _shifts(
    business: Business, agents: list[User], today: date, days: int, zone: zoneinfo.ZoneInfo
) -> list[AgentSignedIn]:
    """Every agent signed in through each day's opening hours (sessions start 10:00-22:00 and
    last up to 11 minutes), so the Reports page's agents' load divides by real signed-in time."""
    return [
        AgentSignedIn(
            agent=agent,
            owner_id=business.owner_id,
            started_at=datetime.combine(today - timedelta(days=back), time(9, 45), zone),
            ended_at=datetime.combine(today - timedelta(days=back), time(22, 30), zone),
        )
        for back in range(days, 0, -1)
        for agent in agents
    ]


def _plan(rng: random.Random, started: datetime, agents: list[User], n: int) -> Plan:
    """The random draws in a fixed order: the same business gets the same history."""
    roll = rng.random()
    agent = agents[n % len(agents)]
    plan = Plan(started=started, locale=rng.choice(LOCALES), handle=rng.randint(90, 600))
    if roll < 0.12:  # nobody answered in time: the customer left
        plan.status, plan.handle = SessionStatus.ABANDONED, rng.randint(20, 120)
    elif roll < 0.27:  # self-service: the customer ordered alone
        plan.paid = True
    else:
        plan.agent = agent
        plan.wait = rng.randint(4, 70)
        plan.paid = rng.random() < 0.7
        if roll < 0.33:  # answered, then the customer left
            plan.status, plan.paid = SessionStatus.ABANDONED, False
        elif roll < 0.42 and len(agents) > 1:  # handed over to a colleague
            plan.transferred_from, plan.agent = agent, agents[(n + 1) % len(agents)]
    return plan


def _session(business: Business, kiosk: Kiosk, plan: Plan, public_id: str) -> Session:
    abandoned = plan.status == SessionStatus.ABANDONED
    return Session(
        public_id=public_id,
        owner_id=business.owner_id,
        business=business,
        kiosk=kiosk,
        agent=plan.agent,
        status=plan.status,
        customer_locale=plan.locale,
        created_at=plan.started,
        accepted_at=plan.accepted,
        ended_at=plan.ended,
        end_reason=EndReason.CUSTOMER_ABANDONED if abandoned else EndReason.COMPLETED,
        notes=DEMO_HISTORY_NOTE,
    )


def _assignments(session: Session, plan: Plan) -> list[Assignment]:
    accepted, ended, first = plan.accepted, plan.ended, plan.transferred_from
    if accepted is None:
        return []
    if first is None:
        return [
            Assignment(session=session, agent=plan.agent, via=AssignmentVia.ACCEPT, started_at=accepted, ended_at=ended)
        ]
    handed_over = accepted + (ended - accepted) / 3
    return [
        Assignment(session=session, agent=first, via=AssignmentVia.ACCEPT, started_at=accepted, ended_at=handed_over),
        Assignment(
            session=session, agent=plan.agent, via=AssignmentVia.TRANSFER, started_at=handed_over, ended_at=ended
        ),
    ]


def _order(business: Business, session: Session, plan: Plan, n: int) -> Order:
    return Order(
        session=session,
        owner_id=business.owner_id,
        business=business,
        number=f"H{n:05d}",
        status=OrderStatus.COMPLETED,
        currency=business.currency,
        created_at=plan.accepted or plan.started,
        updated_at=plan.ended,
        paid_at=plan.ended - timedelta(seconds=20),
    )


def _lines(rng: random.Random, order: Order, items: list[MenuItem]) -> list[OrderLine]:
    chosen = rng.sample(items, k=min(len(items), rng.randint(1, 3))) if items else []
    return [
        OrderLine(
            order=order,
            position=position,
            menu_item=item,
            name=item.name,
            quantity=rng.randint(1, 3),
            unit_price_cents=item.price_cents,
        )
        for position, item in enumerate(chosen)
    ]


def _refunds(refunded: list[tuple[Order, Plan]]) -> None:
    """A payment for each refunded order and a refund of half of it (only refunds need one here)."""
    for order, plan in refunded:
        paid_at = plan.ended - timedelta(seconds=20)
        payment = Payment.objects.create(
            order=order,
            account_id="acct_demo_history",
            intent_id=f"pi_demo_history_{order.session.public_id}",
            amount_cents=order.total_cents,
            currency=order.currency,
            status=PaymentStatus.SUCCEEDED,
            created_at=paid_at,
            succeeded_at=paid_at,
        )
        Refund.objects.create(
            order=order,
            payment=payment,
            refund_id=f"re_demo_history_{order.session.public_id}",
            amount_cents=order.total_cents // 2,
            reason="Demo data: a refunded order.",
            created_at=paid_at + timedelta(hours=1),
        )
