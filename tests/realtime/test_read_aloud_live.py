"""Reading the cart aloud over a real server: the agent's POST reaches the kiosk's WebSocket as
CartReadAloud, and no other socket (the agent's own, a colleague's, another kiosk's)."""

import asyncio

import pytest
from django.utils import timezone

from tests import factories
from tests.support.realtime import agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_cart_read_aloud_reaches_the_kiosks_channel_only(live_app, kiosk, owner, business):
    agent, colleague = factories.AgentFactory(owner=owner), factories.AgentFactory(owner=owner)
    other_kiosk = factories.KioskFactory(business=business)
    session = factories.SessionFactory(
        kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now(), accessible_mode=True
    )
    headers, colleague_headers = agent_headers(agent), agent_headers(colleague)
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    other_device = {"X-Device-Id": str(other_kiosk.device_id), "X-Device-Token": other_kiosk.raw_token}
    server = live_app()

    async def scenario():
        on_agent = await subscribe_via(server, "/broadcasting/auth", headers, f"private-agent.{agent.pk}")
        on_colleague = await subscribe_via(
            server, "/broadcasting/auth", colleague_headers, f"private-agent.{colleague.pk}"
        )
        on_kiosk = await subscribe_via(server, "/api/public/broadcasting/auth", device, f"private-kiosk.{kiosk.pk}")
        on_other = await subscribe_via(
            server, "/api/public/broadcasting/auth", other_device, f"private-kiosk.{other_kiosk.pk}"
        )

        # A colleague cannot: 404, and nothing is said.
        path = f"/api/sessions/{session.public_id}/read-aloud"
        status, body = await asyncio.to_thread(http, server, "POST", path, {}, colleague_headers)
        assert status == 404, body

        status, body = await asyncio.to_thread(http, server, "POST", path, {}, headers)
        assert status == 200, body
        said = await on_kiosk.next("CartReadAloud")
        assert said["data"] == {"session_id": session.public_id}
        heard = {
            on_agent: f"private-agent.{agent.pk}",
            on_colleague: f"private-agent.{colleague.pk}",
            on_other: f"private-kiosk.{other_kiosk.pk}",
        }
        await nothing_more(server, heard)

    run(scenario())
