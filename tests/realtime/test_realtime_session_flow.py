"""A whole session over a real server: REST calls over HTTP and WebSocket subscribers signed by the
real auth endpoints. The agents hear SessionIncoming and SessionClaimed, the kiosk hears its status
at each step and the cart as the agent builds it."""

import asyncio

import pytest

from tests import factories
from tests.support.realtime import agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_a_session_from_start_to_end_as_the_clients_hear_it(live_app, kiosk, owner, business):
    winner, colleague = factories.AgentFactory(owner=owner), factories.AgentFactory(owner=owner)
    item = factories.MenuItemFactory(
        category=factories.CategoryFactory(catalog=factories.CatalogFactory(business=business)), price_cents=650
    )
    winner_headers, colleague_headers = agent_headers(winner), agent_headers(colleague)
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    server = live_app()

    async def scenario():
        on_winner = await subscribe_via(server, "/broadcasting/auth", winner_headers, f"private-agent.{winner.pk}")
        on_colleague = await subscribe_via(
            server, "/broadcasting/auth", colleague_headers, f"private-agent.{colleague.pk}"
        )
        on_kiosk = await subscribe_via(server, "/api/public/broadcasting/auth", device, f"private-kiosk.{kiosk.pk}")

        start = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
        status, started = await asyncio.to_thread(http, server, "POST", "/api/public/sessions/start", start, device)
        assert status == 201, started
        session_id = started["session_id"]
        for agent_socket in (on_winner, on_colleague):
            assert (await agent_socket.next("SessionIncoming"))["data"]["session"]["id"] == session_id
        assert (await on_kiosk.next("SessionStatusChanged"))["data"]["status"] == "pending"

        path = f"/api/sessions/{session_id}/accept"
        status, accepted = await asyncio.to_thread(http, server, "POST", path, {}, winner_headers)
        assert status == 200, accepted
        claimed = await on_colleague.next("SessionClaimed")
        assert claimed["data"] == {"session_id": session_id, "status": "active", "agent_id": str(winner.pk)}
        # The winner is not told to drop its own session.
        await nothing_more(server, {on_winner: f"private-agent.{winner.pk}"})
        active = (await on_kiosk.next("SessionStatusChanged"))["data"]
        assert (active["status"], active["agent"]["id"]) == ("active", str(winner.pk))

        cart = {"session_id": session_id, "lines": [{"menu_item_id": str(item.pk), "quantity": 2}]}
        status, order = await asyncio.to_thread(http, server, "POST", "/api/orders", cart, winner_headers)
        assert status == 200, order
        assert (await on_kiosk.next("OrderUpdated"))["data"] == order

        end = {"reason": "completed", "notes": ""}
        path = f"/api/sessions/{session_id}/end"
        status, ended = await asyncio.to_thread(http, server, "POST", path, end, winner_headers)
        assert status == 200, ended
        assert (await on_kiosk.next("SessionStatusChanged"))["data"]["status"] == "completed"

    run(scenario())
