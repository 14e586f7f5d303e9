"""A whole session over a real server: REST calls over HTTP and WebSocket subscribers signed by the
real auth endpoints. The agents hear SessionIncoming and SessionClaimed, the kiosk hears its status
at each step and the cart as the agent builds it."""

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from django.conf import settings

from tests import factories
from tests.conftest import AgentClient
from tests.realtime.test_realtime_live_server import PusherSocket, live_app, run

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]
__all__ = ["live_app"]


def http(server, method: str, path: str, body: dict | None = None, headers: dict | None = None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.base_url}{path}", data=data, method=method, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def agent_headers(agent) -> dict:
    """A signed-in agent's cookie and XSRF header (signed in here; the server reads the session
    from the database)."""
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
    return {"Cookie": cookie, "X-XSRF-TOKEN": cookies[settings.XSRF_COOKIE_NAME]}


async def subscribe_via(server, path: str, headers: dict, channel: str) -> PusherSocket:
    client = await PusherSocket.open(server.ws_url())
    body = {"socket_id": client.socket_id, "channel_name": channel}
    status, signed = await asyncio.to_thread(http, server, "POST", path, body, headers)
    assert status == 200, signed
    reply = await client.subscribe(channel, signed["auth"], signed.get("channel_data"))
    assert reply["event"] == "pusher_internal:subscription_succeeded", reply
    return client


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
        await on_winner.nothing(0.3)  # the winner is not told to drop its own session
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
