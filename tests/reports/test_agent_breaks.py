"""Time on break per agent: status changes (the agent's own and the server's) open and close
AgentBreak rows; the sessions report's `agent_breaks` sums the part of them inside its range,
in the business's days; another owner's agents never show."""

from datetime import UTC, date, datetime

import pytest

from apps.accounts.models import AgentStatus, StatusReason
from apps.accounts.services import agent_account_disable, agent_set_status, agents_set_status_by_server
from apps.reports.breaks import break_seconds
from apps.reports.models import AgentBreak
from apps.reports.ranges import report_range
from tests import factories
from tests.conftest import token_client_for

URL = "/api/v1/reports/sessions"


def utc(*parts) -> datetime:
    return datetime(*parts, tzinfo=UTC)


@pytest.fixture
def business(db, settings):
    settings.REQUIRE_TLS = False
    return factories.BusinessFactory(timezone="Europe/Madrid")


def test_status_changes_open_and_close_one_break(business):
    agent = factories.AgentFactory(owner=business.owner)
    agent_set_status(agent=agent, status=AgentStatus.BREAK)
    agent_set_status(agent=agent, status=AgentStatus.BREAK)  # again: still the one break
    [open_break] = AgentBreak.objects.filter(agent=agent)
    assert open_break.ended_at is None and open_break.owner_id == business.owner_id
    agent_set_status(agent=agent, status=AgentStatus.AVAILABLE)
    open_break.refresh_from_db()
    assert open_break.ended_at is not None and open_break.ended_at >= open_break.started_at
    agent_set_status(agent=agent, status=AgentStatus.OFFLINE)  # no break open: nothing to close
    assert AgentBreak.objects.filter(agent=agent).count() == 1


def test_the_server_setting_an_agent_on_break_counts_too(business):
    agent = factories.AgentFactory(owner=business.owner)
    changed = agents_set_status_by_server(
        agent_ids=[agent.pk], only_from=(AgentStatus.AVAILABLE,), status=AgentStatus.BREAK,
        reason=StatusReason.MISSED_OFFERS,
    )  # fmt: skip
    assert changed == [agent.pk]
    assert AgentBreak.objects.filter(agent=agent, ended_at__isnull=True).count() == 1


def test_break_seconds_are_cut_to_the_range_in_local_days(business):
    owner = business.owner
    ana, ben = factories.AgentFactory(owner=owner), factories.AgentFactory(owner=owner)
    # Range 2026-10-24..2026-10-25 in Madrid = [2026-10-23T22:00Z, 2026-10-25T23:00Z).
    AgentBreak.objects.create(
        agent=ana, owner=owner, started_at=utc(2026, 10, 23, 21, 50), ended_at=utc(2026, 10, 23, 22, 10)
    )
    AgentBreak.objects.create(
        agent=ana, owner=owner, started_at=utc(2026, 10, 24, 12), ended_at=utc(2026, 10, 24, 12, 30)
    )
    AgentBreak.objects.create(agent=ben, owner=owner, started_at=utc(2026, 10, 25, 22, 59))  # open
    AgentBreak.objects.create(agent=ben, owner=owner, started_at=utc(2026, 10, 25, 23), ended_at=utc(2026, 10, 26))
    report = report_range(owner_id=owner.pk, first_day=date(2026, 10, 24), last_day=date(2026, 10, 25))
    # 10 min after the range starts + 30 min; Ben's open break: its last minute of the range.
    assert break_seconds(report, now=utc(2026, 11, 1)) == {ana.pk: 2400, ben.pk: 60}
    assert break_seconds(report, now=utc(2026, 10, 25, 22, 59, 30)) == {ana.pk: 2400, ben.pk: 30}


def test_the_report_lists_each_agents_time_on_break_and_never_another_owners(business):
    owner = business.owner
    ana = factories.AgentFactory(owner=owner, name="Ana")
    AgentBreak.objects.create(
        agent=ana, owner=owner, started_at=utc(2026, 10, 24, 8), ended_at=utc(2026, 10, 24, 8, 15)
    )
    stranger = factories.AgentFactory(owner=factories.BusinessFactory(timezone="Europe/Madrid").owner)
    AgentBreak.objects.create(
        agent=stranger, owner=stranger.owner, started_at=utc(2026, 10, 24, 8), ended_at=utc(2026, 10, 24, 9)
    )
    response = token_client_for(ana).get(URL, {"from": "2026-10-24", "to": "2026-10-25", "group_by": "agent"})
    assert response.status_code == 200, response.content
    assert response.json()["agent_breaks"] == [{"agent": {"id": ana.pk, "name": "Ana"}, "break_seconds": 900}]
    other = token_client_for(stranger).get(URL, {"from": "2026-10-20", "to": "2026-10-21"})
    assert other.json()["agent_breaks"] == []


def test_disabling_an_agent_on_break_ends_the_break_and_says_so_on_its_channel(business, broadcasts):
    agent = factories.AgentFactory(owner=business.owner)
    agent_set_status(agent=agent, status=AgentStatus.BREAK)
    broadcasts.clear()
    agent_account_disable(agent=agent)
    [closed] = AgentBreak.objects.filter(agent=agent)
    assert closed.ended_at is not None
    told = [(channels, data) for channels, event, data in broadcasts if event == "AgentStatusChanged"]
    assert told == [
        (
            [f"private-agent.{agent.pk}"],
            {
                "status": "offline",
                "status_reason": "disabled",
                "status_message": "Your account was disabled. Ask the restaurant's owner to let you sign in again.",
            },
        )
    ]
    broadcasts.clear()
    agent_account_disable(agent=agent)  # already offline: no change to tell
    assert [event for _, event, _ in broadcasts if event == "AgentStatusChanged"] == []
