"""Who counts as signed in (apps/routing/signed_in.py, agent_presence.py): a dashboard holding
its private channel over a real WebSocket, or an incoming poll within 10 s; an agent gone for
more than 60 s is set offline and told why, one back within that time finds nothing changed."""

import asyncio
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from apps.accounts.models import AgentStatus, User
from apps.routing import agent_presence
from tests import factories
from tests.support.private_servers import wait_until
from tests.support.realtime import agent_headers, http, library, run, subscribe_via


def test_an_agent_gone_for_more_than_60_seconds_is_set_offline_and_told_why(owner, broadcasts):
    now = timezone.now()
    gone = factories.AgentFactory(owner=owner, last_seen_at=now - timedelta(seconds=61))
    on_break = factories.AgentFactory(
        owner=owner, agent_status=AgentStatus.BREAK, last_seen_at=now - timedelta(seconds=90)
    )
    back_in_time = factories.AgentFactory(owner=owner, last_seen_at=now - timedelta(seconds=59))
    serving = factories.AgentFactory(owner=owner, agent_status=AgentStatus.BUSY, last_seen_at=now - timedelta(hours=1))
    agent_presence.presence_tick(now=now)
    states = dict(User.objects.filter(is_agent=True).values_list("pk", "agent_status"))
    assert states == {gone.pk: "offline", on_break.pk: "offline", back_in_time.pk: "available", serving.pk: "busy"}
    assert User.objects.get(pk=gone.pk).status_reason == "gone"
    told = {channels[0]: data for channels, event, data in broadcasts if event == "AgentStatusChanged"}
    assert set(told) == {f"private-agent.{gone.pk}", f"private-agent.{on_break.pk}"}
    assert told[f"private-agent.{gone.pk}"]["status_reason"] == "gone"
    assert told[f"private-agent.{gone.pk}"]["status_message"].startswith("You were away")


def test_a_poll_within_the_60_seconds_changes_nothing(owner, agent, agent_client, broadcasts):
    User.objects.filter(pk=agent.pk).update(last_seen_at=timezone.now() - timedelta(seconds=50))
    agent_client.get("/api/sessions/incoming")
    agent_presence.presence_tick(now=timezone.now() + timedelta(seconds=15))
    agent.refresh_from_db()
    assert (agent.agent_status, agent.status_reason) == ("available", "")
    assert broadcasts == []


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
def test_a_dashboard_holding_its_channel_is_signed_in_and_one_without_is_not(live_app, kiosk, owner):
    holding = factories.AgentFactory(owner=owner)
    polled_long_ago = factories.AgentFactory(owner=owner)
    holding_headers, other_headers = agent_headers(holding), agent_headers(polled_long_ago)
    # Both agents' last sign of life (their sign-in) older than AGENT_SIGNED_IN_SECONDS, and not
    # gone (AGENT_GONE_SECONDS): the holding one counts by its channel only.
    seen = timezone.now() - timedelta(seconds=settings.AGENT_SIGNED_IN_SECONDS + 5)
    assert settings.AGENT_SIGNED_IN_SECONDS + 5 < settings.AGENT_GONE_SECONDS
    User.objects.filter(pk__in=[holding.pk, polled_long_ago.pk]).update(last_seen_at=seen)
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    server = live_app()  # the shared server, on the rows made here

    async def scenario():
        socket = await subscribe_via(server, "/broadcasting/auth", holding_headers, f"private-agent.{holding.pk}")
        start = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
        status, started = await asyncio.to_thread(http, server, "POST", "/api/public/sessions/start", start, device)
        assert status == 201, started
        offered = await socket.next("SessionIncoming")
        assert offered["data"]["session"]["id"] == started["session_id"]
        poll = f"/api/public/sessions/{started['session_id']}/status"
        status, body = await asyncio.to_thread(http, server, "GET", poll, None, device)
        assert body["queue"]["agents_available"] == 1  # the other: no channel, no recent poll
        # Its first poll signs it in, and it is offered the waiting session at once (a wave of 3).
        status, listed = await asyncio.to_thread(http, server, "GET", "/api/sessions/incoming", None, other_headers)
        assert [session["id"] for session in listed["sessions"]] == [started["session_id"]]
        status, body = await asyncio.to_thread(http, server, "GET", poll, None, device)
        assert body["queue"]["agents_available"] == 2
        await socket.close()

    run(scenario())
    # The server has handled the socket's close (its channel is let go) before the test ends.
    channel = f"private-agent.{holding.pk}"
    wait_until(lambda: not library(server).channel_info(channel)["occupied"], 5, "the closed socket let go")
