"""Agents' load: status changes open and close AgentSignedIn rows; the sessions report's
`agent_load` gives each agent's time signed in, the sessions it held at once on average, the
sessions it answered per signed-in hour and its time in a video conversation against its time
serving at all, from real Session, Assignment and Payment rows; another owner's agents never
show; the panel's Reports page shows it and exports it as CSV."""

import csv
import io
import re
from datetime import UTC, date, datetime, timedelta

import pytest

from apps.accounts.models import AgentStatus
from apps.accounts.services import agent_set_status
from apps.reports.agent_load import agent_load
from apps.reports.models import AgentSignedIn
from apps.reports.ranges import report_range
from apps.sessions.models import Assignment, AssignmentVia
from tests import factories
from tests.conftest import token_client_for

URL = "/api/v1/reports/sessions"
DAY = date(2026, 10, 24)


def utc(*parts) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.fixture
def business(db, settings):
    settings.REQUIRE_TLS = False
    return factories.BusinessFactory(timezone="UTC")


def _served(agent, business, *, medium: str, accepted: datetime, ended: datetime, paid: datetime | None = None):
    session = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business),
        medium=medium,
        status="completed",
        agent=agent,
        created_at=accepted - timedelta(seconds=5),
        accepted_at=accepted,
        ended_at=ended,
    )
    Assignment.objects.create(
        session=session, agent=agent, via=AssignmentVia.ACCEPT, started_at=accepted, ended_at=ended
    )
    if paid is not None:
        factories.PaymentFactory(order=factories.OrderFactory(session=session), created_at=paid)
    return session


def _scene(business):
    """Ana signed in 10:00-12:00; a video customer 10:00-10:06 (to payment at 10:05) and a chat
    10:02-10:20 at once."""
    ana = factories.AgentFactory(owner=business.owner, name="Ana")
    AgentSignedIn.objects.create(
        agent=ana, owner=business.owner, started_at=utc(2026, 10, 24, 10), ended_at=utc(2026, 10, 24, 12)
    )
    _served(
        ana,
        business,
        medium="video",
        accepted=utc(2026, 10, 24, 10),
        ended=utc(2026, 10, 24, 10, 6),
        paid=utc(2026, 10, 24, 10, 5),
    )
    _served(ana, business, medium="chat", accepted=utc(2026, 10, 24, 10, 2), ended=utc(2026, 10, 24, 10, 20))
    return ana


ANA = {
    "signed_in_seconds": 7200,
    "sessions_answered": 2,
    "sessions_per_hour": 1.0,  # two in two hours
    "sessions_held_avg": 0.2,  # 6 + 18 minutes held over 120
    "serving_seconds": 1200,  # 10:00 to 10:20 holding at least one
    "video_seconds": 300,  # 10:00 to the payment at 10:05
    "video_share": 0.25,
}


def test_status_changes_open_and_close_one_signed_in_stretch(business):
    agent = factories.AgentFactory(owner=business.owner, agent_status=AgentStatus.OFFLINE)
    agent_set_status(agent=agent, status=AgentStatus.AVAILABLE)
    agent_set_status(agent=agent, status=AgentStatus.BREAK)  # still signed in: the same stretch
    [stretch] = AgentSignedIn.objects.filter(agent=agent)
    assert stretch.ended_at is None and stretch.owner_id == business.owner_id
    agent_set_status(agent=agent, status=AgentStatus.OFFLINE)
    stretch.refresh_from_db()
    assert stretch.ended_at is not None and stretch.ended_at >= stretch.started_at


def test_concurrency_sessions_per_hour_and_time_in_video_from_real_rows(business):
    ana = _scene(business)
    report = report_range(owner_id=business.owner_id, first_day=DAY, last_day=DAY)
    [row] = agent_load(report, now=utc(2026, 11, 1))
    assert row == {"agent": {"id": ana.pk, "name": "Ana"}, **ANA}
    # Cut to the range: a report of the next day has nothing of it.
    later = report_range(
        owner_id=business.owner_id, first_day=DAY + timedelta(days=1), last_day=DAY + timedelta(days=1)
    )
    assert agent_load(later, now=utc(2026, 11, 1)) == []


def test_a_stretch_still_open_counts_up_to_now(business):
    ana = factories.AgentFactory(owner=business.owner, name="Ana")
    AgentSignedIn.objects.create(agent=ana, owner=business.owner, started_at=utc(2026, 10, 24, 10))
    report = report_range(owner_id=business.owner_id, first_day=DAY, last_day=DAY)
    [row] = agent_load(report, now=utc(2026, 10, 24, 10, 30))
    assert (row["signed_in_seconds"], row["sessions_held_avg"], row["video_share"]) == (1800, 0.0, None)


def test_only_the_time_held_while_signed_in_counts_toward_the_sessions_held_at_once(business):
    """A session held outside every signed-in stretch (generated history, an agent gone offline
    while holding one) cannot raise the average past what was possible: Ana signed in 10:00-12:00
    held one session 09:00-10:30 (30 minutes of it signed in) and one 10:00-11:00."""
    ana = factories.AgentFactory(owner=business.owner, name="Ana")
    AgentSignedIn.objects.create(
        agent=ana, owner=business.owner, started_at=utc(2026, 10, 24, 10), ended_at=utc(2026, 10, 24, 12)
    )
    _served(ana, business, medium="chat", accepted=utc(2026, 10, 24, 9), ended=utc(2026, 10, 24, 10, 30))
    _served(ana, business, medium="chat", accepted=utc(2026, 10, 24, 10), ended=utc(2026, 10, 24, 11))
    bea = factories.AgentFactory(owner=business.owner, name="Bea")  # never signed in
    _served(bea, business, medium="chat", accepted=utc(2026, 10, 24, 10), ended=utc(2026, 10, 24, 11))
    report = report_range(owner_id=business.owner_id, first_day=DAY, last_day=DAY)
    ana_row, bea_row = agent_load(report, now=utc(2026, 11, 1))
    assert ana_row["sessions_held_avg"] == 0.75  # (30 + 60 minutes) over 120
    assert ana_row["serving_seconds"] == 7200  # 09:00 to 11:00 holding at least one
    assert (bea_row["signed_in_seconds"], bea_row["sessions_held_avg"], bea_row["sessions_per_hour"]) == (0, None, None)


def test_the_api_reports_each_agents_load_and_never_another_owners(business):
    ana = _scene(business)
    stranger_business = factories.BusinessFactory(timezone="UTC")
    stranger = _scene(stranger_business)
    response = token_client_for(ana).get(URL, {"from": "2026-10-24", "to": "2026-10-24", "group_by": "kiosk"})
    assert response.status_code == 200, response.content
    assert response.json()["agent_load"] == [{"agent": {"id": ana.pk, "name": "Ana"}, **ANA}]
    theirs = token_client_for(stranger).get(URL, {"from": "2026-10-24", "to": "2026-10-24"}).json()["agent_load"]
    assert [row["agent"]["id"] for row in theirs] == [stranger.pk]


def test_the_panel_exports_the_agents_load_as_csv(business, owner_client):
    _scene(business)
    _scene(factories.BusinessFactory(timezone="UTC"))  # another owner's Ana: not in this export
    response = owner_client.get(
        "/panel/reports/agents.csv", {"preset": "custom", "date_from": "2026-10-24", "date_to": "2026-10-24"}
    )
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert rows[0] == ["agent_id", "agent", *ANA]
    assert len(rows) == 2 and rows[1][1:] == ["Ana", "7200", "2", "1.0", "0.2", "1200", "300", "0.25"]


def test_the_reports_page_shows_each_agents_load_in_words_and_links_its_csv(business, owner_client):
    ana = _scene(business)
    _scene(factories.BusinessFactory(timezone="UTC"))  # another owner's Ana: not on this page
    query = {"preset": "custom", "date_from": "2026-10-24", "date_to": "2026-10-24"}
    page = owner_client.get("/panel/reports", query).content.decode()
    table = re.search(r'<table id="report-load">(.*?)</table>', page, re.S).group(1)
    rows = re.findall(r'<tr data-agent="(\d+)">(.*?)</tr>', table, re.S)
    assert [int(agent_id) for agent_id, _ in rows] == [ana.pk]
    cells = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", rows[0][1])]
    assert cells == ["Ana", "2:00:00", "2", "1.0", "0.2", "0:20:00", "25.0%"]
    assert 'id="export-agents" href="/panel/reports/agents.csv?' in page
