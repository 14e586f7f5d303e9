"""The Agents page shows each agent's figures for today (the owner's time zone)."""

from datetime import UTC, datetime, timedelta

import time_machine
from django.utils import timezone

from tests import factories

# Midday: sessions started minutes before "now" are today's in any of the owners' time zones
# (run just after midnight, they were yesterday's).
MIDDAY = datetime(2026, 10, 24, 12, 0, tzinfo=UTC)


@time_machine.travel(MIDDAY, tick=False)
def test_each_agent_shows_todays_sessions_handle_time_conversion_and_sales(owner_client, business):
    ana = factories.AgentFactory(owner=business.owner, name="Ana")
    factories.AgentFactory(owner=business.owner, name="Ben")
    now = timezone.now()
    kiosk = factories.KioskFactory(business=business)
    for handle, total in ((100, 1500), (200, None)):
        started = now - timedelta(seconds=handle + 10)
        session = factories.SessionFactory(
            kiosk=kiosk, agent=ana, status="completed", created_at=started,
            accepted_at=started + timedelta(seconds=5), ended_at=started + timedelta(seconds=5 + handle),
        )  # fmt: skip
        if total:
            factories.OrderFactory(session=session, status="completed", total_cents=total)
    yesterday = now - timedelta(days=2)
    factories.SessionFactory(kiosk=kiosk, agent=ana, status="completed", created_at=yesterday, accepted_at=yesterday)
    stranger = factories.SessionFactory(kiosk=factories.KioskFactory(), status="completed", created_at=now)
    assert stranger.owner_id != business.owner_id
    response = owner_client.get("/panel/agents")
    assert response.status_code == 200
    agents = {row.agent.name: row for row in response.context["agents"]}
    assert agents["Ana"].today["sessions_started"] == 2
    assert agents["Ana"].today["handle_seconds_avg"] == 150.0
    assert agents["Ana"].today["conversion"] == 0.5 and agents["Ana"].today["revenue_cents"] == 1500
    assert agents["Ben"].today is None
    page = response.content.decode()
    assert "2 sessions, handle 150.0 s, conversion 50%, sales 15.00" in page and "no sessions" in page
