"""Show to customer and point at an item over a real server: the agent's POST reaches the kiosk's
WebSocket as MenuItemShown, the kiosk's POST reaches the agent's as MenuItemPointed, and neither
reaches a socket it is not meant for."""

import asyncio

import pytest
from django.utils import timezone

from tests import factories
from tests.support.realtime import agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_shown_and_pointed_reach_the_other_side(live_app, kiosk, owner, business):
    agent, colleague = factories.AgentFactory(owner=owner), factories.AgentFactory(owner=owner)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business))
    item = factories.MenuItemFactory(category=category, name="Classic burger")
    session = factories.SessionFactory(kiosk=kiosk, status="active", agent=agent, accepted_at=timezone.now())
    headers, colleague_headers = agent_headers(agent), agent_headers(colleague)
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    server = live_app()

    async def scenario():
        on_agent = await subscribe_via(server, "/broadcasting/auth", headers, f"private-agent.{agent.pk}")
        on_colleague = await subscribe_via(
            server, "/broadcasting/auth", colleague_headers, f"private-agent.{colleague.pk}"
        )
        on_kiosk = await subscribe_via(server, "/api/public/broadcasting/auth", device, f"private-kiosk.{kiosk.pk}")

        path = f"/api/sessions/{session.public_id}/show"
        status, body = await asyncio.to_thread(http, server, "POST", path, {"item_id": str(item.pk)}, headers)
        assert status == 200, body
        shown = await on_kiosk.next("MenuItemShown")
        assert shown["data"] == {"session_id": session.public_id, "item_id": str(item.pk)}
        await nothing_more(server, {on_agent: f"private-agent.{agent.pk}"})

        path = f"/api/public/sessions/{session.public_id}/point"
        status, body = await asyncio.to_thread(http, server, "POST", path, {"item_id": str(item.pk)}, device)
        assert status == 200, body
        pointed = await on_agent.next("MenuItemPointed")
        assert pointed["data"] == {"session_id": session.public_id, "item_id": str(item.pk), "name": "Classic burger"}
        await nothing_more(
            server, {on_colleague: f"private-agent.{colleague.pk}", on_kiosk: f"private-kiosk.{kiosk.pk}"}
        )

    run(scenario())
