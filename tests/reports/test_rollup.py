"""The rollup (PostgreSQL's path for long ranges) says what the exact report says, on random
sessions around a daylight-saving change: every count and sum equal, each percentile within the
histogram buckets of the values it lies between; and it follows later changes (the triggers)."""

import math
import random
import zoneinfo
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection

from apps.orders.models import Order, OrderLine
from apps.reports.histogram import ANSWER_EDGES, HANDLE_EDGES
from apps.reports.models import SessionRollup, StaleHour
from apps.reports.ranges import GROUPS, report_range
from apps.reports.rollup import rollup_figures, whole_hour_offsets
from apps.reports.sessions_report import PAID, exact_figures, metrics_of
from apps.routing.models import Offer
from apps.sessions.models import Assignment, Session
from tests import factories

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="the rollup is PostgreSQL's")

FIRST, LAST = date(2026, 10, 23), date(2026, 10, 27)  # Madrid's summer time ends on the 25th
PERCENTILES = {
    "answer_seconds_p50": ("answer", 0.5, ANSWER_EDGES),
    "answer_seconds_p90": ("answer", 0.9, ANSWER_EDGES),
    "handle_seconds_p90": ("handle", 0.9, HANDLE_EDGES),
}


def _scene(seed: int):
    rng = random.Random(seed)
    business = factories.BusinessFactory(timezone="Europe/Madrid")
    owner = business.owner
    kiosks = [factories.KioskFactory(business=business) for _ in range(3)]
    agents = [factories.AgentFactory(owner=owner) for _ in range(3)]
    start = datetime(2026, 10, 21, 20, tzinfo=UTC)  # a day either side of the range
    sessions = []
    for _ in range(120):
        created = start + timedelta(seconds=rng.randrange(0, 8 * 86400))
        answered = rng.random() < 0.7
        accepted = created + timedelta(seconds=rng.choice([1, 5, 29, 30, 31, 44, 90, 400, 5000])) if answered else None
        ended = (accepted or created) + timedelta(seconds=rng.randrange(0, 3000)) if rng.random() < 0.9 else None
        sessions.append(
            Session(
                owner=owner,
                business=business,
                kiosk=rng.choice(kiosks),
                agent=rng.choice(agents) if answered else None,
                status=rng.choice(["completed", "abandoned"]),  # not open: one per kiosk
                customer_locale=rng.choice(["en-US", "es-ES", "de-DE"]),
                created_at=created,
                accepted_at=accepted,
                ended_at=ended,
            )
        )
    sessions = Session.objects.bulk_create(sessions)
    for number, session in enumerate(sessions):
        if rng.random() < 0.6:
            order = factories.OrderFactory(
                session=session, number=f"R{number}", status=rng.choice([*PAID, "draft", "cancelled"]),
                total_cents=rng.randrange(100, 5000),
            )  # fmt: skip
            for position in range(rng.randrange(0, 3)):
                OrderLine.objects.create(order=order, position=position, name="x", quantity=rng.randrange(1, 4),
                                         unit_price_cents=100)  # fmt: skip
            if rng.random() < 0.2:
                factories.RefundFactory(payment=factories.PaymentFactory(order=order, status="succeeded"),
                                        amount_cents=rng.randrange(1, 99))  # fmt: skip
        for agent in rng.sample(agents, rng.randrange(0, 3)):
            Offer.objects.create(session=session, agent=agent, status=rng.choice(["missed", "accepted", "withdrawn"]),
                                 created_at=session.created_at, expires_at=session.created_at)  # fmt: skip
        if session.agent_id and rng.random() < 0.3:
            Assignment.objects.create(session=session, agent=session.agent, via="transfer",
                                      started_at=session.created_at)  # fmt: skip
    return owner, rng


def _values(report, group_by: str) -> dict:
    """{key: {"answer": [...], "handle": [...]}} computed here, in Python, from the sessions."""
    zone = zoneinfo.ZoneInfo(report.timezone)
    values: dict = {}
    for session in Session.objects.filter(**report.session_scope()):
        local = session.created_at.astimezone(zone)
        key = {
            "agent": session.agent_id,
            "kiosk": session.kiosk_id,
            "language": session.customer_locale,
            "hour": local.hour,
            "day": local.date(),
        }[group_by]
        for bucket in (
            values.setdefault(key, {"answer": [], "handle": []}),
            values.setdefault("totals", {"answer": [], "handle": []}),
        ):
            if session.accepted_at:
                bucket["answer"].append((session.accepted_at - session.created_at).total_seconds())
                if session.ended_at:
                    bucket["handle"].append((session.ended_at - session.accepted_at).total_seconds())
    return values


def _bounds(values: list[float], fraction: float, edges) -> tuple[float, float]:
    """The histogram buckets the exact percentile's two neighbouring values fall in."""
    ordered = sorted(values)
    rank = fraction * (len(ordered) - 1)
    low, high = ordered[math.floor(rank)], ordered[math.ceil(rank)]
    below = max(edge for edge in edges if edge <= low)
    above = min([edge for edge in edges if edge > high] or [high])
    return below, above


def _assert_same(rollup: dict, exact: dict, values: dict) -> None:
    got, want = metrics_of(rollup), metrics_of(exact)
    for name, (kind, fraction, edges) in PERCENTILES.items():
        if want[name] is None:
            assert got[name] is None, name
            continue
        below, above = _bounds(values[kind], fraction, edges)
        assert below - 0.05 <= got[name] <= above + 0.05, (name, got[name], want[name], below, above)
        got.pop(name), want.pop(name)
    assert got == want


def _compare(owner, settings) -> int:
    settings.REPORTS_EXACT_MAX_SESSIONS = 0
    report = report_range(owner_id=owner.pk, first_day=FIRST, last_day=LAST)
    assert whole_hour_offsets(report)
    compared = 0
    for group_by in GROUPS:
        figures = rollup_figures(report, group_by)
        assert figures is not None
        (grouped, totals), (exact_grouped, exact_totals) = figures, exact_figures(report, group_by)
        assert set(grouped) == set(exact_grouped), group_by
        values = _values(report, group_by)
        for key in grouped:
            _assert_same(grouped[key], exact_grouped[key], values.get(key, {"answer": [], "handle": []}))
            compared += 1
        _assert_same(totals, exact_totals, values["totals"])
    return compared


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_rollup_equals_the_exact_report_on_random_sessions(db, settings, seed):
    owner, rng = _scene(seed)
    assert _compare(owner, settings) > 20
    assert not StaleHour.objects.filter(owner_id=owner.pk).exists()  # the read recounted them all
    # Later changes, however made, are marked and counted at the next read.
    changed = Session.objects.filter(owner=owner).order_by("?")[:10]
    for session in changed:
        Session.objects.filter(pk=session.pk).update(agent=None, accepted_at=None, status="abandoned")
    Order.objects.filter(owner=owner, status="draft").update(status="paid")
    OrderLine.objects.filter(order__owner=owner, quantity=1).delete()
    Offer.objects.filter(session__owner=owner, status="withdrawn").update(status="missed")
    assert StaleHour.objects.filter(owner_id=owner.pk).exists()
    _compare(owner, settings)


def test_few_sessions_one_day_and_other_zones_are_counted_exactly(db, settings):
    owner, _ = _scene(4)
    report = report_range(owner_id=owner.pk, first_day=FIRST, last_day=LAST)
    settings.REPORTS_EXACT_MAX_SESSIONS = 10_000
    assert rollup_figures(report, "agent") is None  # fewer sessions than that
    settings.REPORTS_EXACT_MAX_SESSIONS = 0
    assert rollup_figures(report, "agent") is not None
    one_day = report_range(owner_id=owner.pk, first_day=FIRST, last_day=FIRST)
    assert rollup_figures(one_day, "agent") is None  # today's figures: exact, no recount on that path
    kolkata = report_range(owner_id=owner.pk, first_day=FIRST, last_day=LAST)
    object.__setattr__(kolkata, "timezone", "Asia/Kolkata")  # +05:30: local hours are not UTC hours
    assert rollup_figures(kolkata, "hour") is None
    assert SessionRollup.objects.filter(owner_id=owner.pk, grain="d").exists()
