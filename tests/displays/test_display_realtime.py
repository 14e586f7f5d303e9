"""The screens over a real server and real WebSockets: a kitchen token's socket, signed by
/api/displays/broadcasting/auth, hears TicketChanged when the kitchen moves a ticket; a board
token's socket hears BoardChanged; neither may join the other's channel nor another business's."""

import asyncio

import pytest

from apps.orders.models import OrderStatus
from tests.support.displays import display_token
from tests.support.orders import BASE, make_order
from tests.support.realtime import PusherSocket, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


def test_kitchen_and_board_hear_a_ticket_move(live_app, business, other_business):
    order = make_order(business, created_at=BASE, status=OrderStatus.CONFIRMED)
    kitchen = {"X-Display-Token": display_token(business, "kitchen")}
    board = {"X-Display-Token": display_token(business, "board")}
    stranger = {"X-Display-Token": display_token(other_business, "kitchen")}
    server = live_app()
    auth = "/api/displays/broadcasting/auth"

    async def scenario():
        on_kitchen = await subscribe_via(server, auth, kitchen, f"private-kitchen.{business.pk}")
        on_board = await subscribe_via(server, auth, board, f"private-board.{business.pk}")

        lurker = await PusherSocket.open(server.ws_url())
        for headers, channel in (
            (board, f"private-kitchen.{business.pk}"),
            (stranger, f"private-kitchen.{business.pk}"),
            (kitchen, f"private-kitchen.{other_business.pk}"),
        ):
            body = {"socket_id": lurker.socket_id, "channel_name": channel}
            status, refused = await asyncio.to_thread(http, server, "POST", auth, body, headers)
            assert (status, refused["error"]["code"]) == (403, "FORBIDDEN"), refused
        await lurker.close()

        path = f"/api/displays/kitchen/tickets/{order.pk}/status"
        status, moved = await asyncio.to_thread(http, server, "POST", path, {"status": "ready"}, kitchen)
        assert status == 200, moved
        heard = (await on_kitchen.next("TicketChanged"))["data"]["ticket"]
        assert heard == moved
        assert heard["status"] == "ready" and heard["number"] == order.number
        number = (await on_board.next("BoardChanged"))["data"]
        assert (number["order_id"], number["number"], number["status"]) == (str(order.pk), order.number, "ready")
        await nothing_more(server, {on_kitchen: f"private-kitchen.{business.pk}"})  # one message per move
        await on_kitchen.close()
        await on_board.close()

    run(scenario())
