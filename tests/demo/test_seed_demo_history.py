"""seed_demo's generated history: a few weeks of sessions and orders per demo business, marked as
demo data, the same on a second run (not duplicated), and the sessions report over the seeded range
is not empty (answered, abandoned, transferred, paid, refunded)."""

import io
from datetime import timedelta

from django.core.management import call_command

from apps.accounts.models import Business
from apps.billing.models import Refund
from apps.demo.history_seed import DAYS, DEMO_HISTORY_NOTE
from apps.orders.models import Order, OrderLine
from apps.reports.ranges import report_range, today_in
from apps.reports.sessions_report import session_report
from apps.sessions.models import Assignment, Session
from tests import factories


def seed() -> None:
    call_command("seed_demo", stdout=io.StringIO())


def counts() -> tuple[int, ...]:
    return (
        Session.objects.filter(notes=DEMO_HISTORY_NOTE).count(),
        Assignment.objects.count(),
        Order.objects.filter(number__startswith="H").count(),
        OrderLine.objects.count(),
        Refund.objects.count(),
    )


def test_seeding_twice_does_not_duplicate_the_history(db):
    seed()
    first = counts()
    assert first[0] >= 2 * DAYS * 6 and first[2] > 0 and first[3] >= first[2] and first[4] == 4  # 2 per business
    seed()
    assert counts() == first


def test_the_report_over_the_seeded_range_is_not_empty(db):
    seed()
    business = Business.objects.get(name="Burger Barn")
    today = today_in(business.timezone)
    report = report_range(owner_id=business.owner_id, first_day=today - timedelta(days=DAYS), last_day=today)
    totals = session_report(report, "agent")["totals"]
    assert totals["sessions_started"] == Session.objects.filter(business=business).count() > 0
    assert totals["sessions_answered"] > 0 and totals["abandoned_waiting"] > 0 and totals["abandoned_after_answer"] > 0
    assert totals["transfers"] > 0 and totals["paid_orders"] > 0 and totals["self_service_orders"] > 0
    assert totals["revenue_cents"] > 0 and totals["refunds_cents"] > 0 and totals["items_per_order"] >= 1
    assert 0 < totals["conversion"] < 1
    # Its agents were signed in while they served: no one held more at once than its seats.
    load = session_report(report, "agent")["agent_load"]
    assert load and all(row["signed_in_seconds"] > 0 for row in load)
    assert all(0 < row["sessions_held_avg"] <= 3 for row in load)
    assert all(session.notes == DEMO_HISTORY_NOTE for session in Session.objects.filter(business=business))


def test_a_seeded_sessions_page_says_it_is_demo_data(db, client):
    seed()
    session = Session.objects.filter(notes=DEMO_HISTORY_NOTE).select_related("business").first()
    client.force_login(factories.PanelUserFactory(owner=session.business.owner, panel_role="owner"))
    response = client.get(f"/panel/reports/sessions/{session.public_id}")
    assert response.status_code == 200
    assert f"Notes: {DEMO_HISTORY_NOTE}" in response.content.decode()
