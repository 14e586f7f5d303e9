"""A transfer over a real server, as the clients hear it: the receiver is offered the active
session (SessionIncoming with transfer_from), and on its accept the sender, the receiver and the
kiosk hear SessionTransferred, the kiosk's status names the receiver; a transfer nobody takes
tells the sender TransferLapsed."""

import asyncio

import pytest

from tests import factories
from tests.support.realtime import agent_headers, http, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]


async def hand_over(server, session, sender_headers, receiver, on_receiver) -> dict:
    """The sender accepts the session and transfers it to `receiver`: the transfer's offer as the
    receiver hears it (after any queue offers it had while the customer waited, 1 s each)."""
    accept = f"/api/sessions/{session.public_id}/accept"
    status, body = await asyncio.to_thread(http, server, "POST", accept, {}, sender_headers)
    assert status == 200, body
    path = f"/api/sessions/{session.public_id}/transfer"
    status, body = await asyncio.to_thread(http, server, "POST", path, {"to_agent_id": receiver.pk}, sender_headers)
    assert status == 202, body
    incoming = (await on_receiver.next("SessionIncoming"))["data"]["session"]
    while incoming["transfer_from"] is None:
        incoming = (await on_receiver.next("SessionIncoming"))["data"]["session"]
    return incoming


def test_the_kiosk_and_both_agents_hear_the_transfer(live_app, kiosk, owner):
    sender = factories.AgentFactory(owner=owner, name="Ann", languages=["en"])
    receiver = factories.AgentFactory(owner=owner, name="Bea", languages=["es"])
    sender_headers, receiver_headers = agent_headers(sender), agent_headers(receiver)
    device = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
    server = live_app()

    async def scenario():
        on_sender = await subscribe_via(server, "/broadcasting/auth", sender_headers, f"private-agent.{sender.pk}")
        on_receiver = await subscribe_via(
            server, "/broadcasting/auth", receiver_headers, f"private-agent.{receiver.pk}"
        )
        on_kiosk = await subscribe_via(server, "/api/public/broadcasting/auth", device, f"private-kiosk.{kiosk.pk}")
        start = {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
        status, started = await asyncio.to_thread(http, server, "POST", "/api/public/sessions/start", start, device)
        assert status == 201, started
        session_id = started["session_id"]
        assert (await on_sender.next("SessionIncoming"))["data"]["session"]["id"] == session_id
        status, body = await asyncio.to_thread(
            http, server, "POST", f"/api/sessions/{session_id}/accept", {}, sender_headers
        )
        assert status == 200, body
        assert (await on_kiosk.next("SessionStatusChanged"))["data"]["status"] == "pending"
        assert (await on_kiosk.next("SessionStatusChanged"))["data"]["agent"]["name"] == "Ann"

        path = f"/api/sessions/{session_id}/transfer"
        status, body = await asyncio.to_thread(http, server, "POST", path, {"language": "es"}, sender_headers)
        assert status == 202, body
        offer = (await on_receiver.next("SessionIncoming"))["data"]["session"]
        assert offer["id"] == session_id
        assert offer["transfer_from"] == {"id": str(sender.pk), "name": "Ann"}

        status, body = await asyncio.to_thread(
            http, server, "POST", f"/api/sessions/{session_id}/accept", {}, receiver_headers
        )
        assert status == 200, body
        expected = {
            "session_id": session_id,
            "status": "active",
            "from_agent_id": str(sender.pk),
            "agent": {"id": str(receiver.pk), "name": "Bea"},
        }
        for socket in (on_sender, on_receiver, on_kiosk):
            assert (await socket.next("SessionTransferred"))["data"] == expected
        status_message = (await on_kiosk.next("SessionStatusChanged"))["data"]
        assert (status_message["status"], status_message["agent"]["name"]) == ("active", "Bea")
        assert status_message["video_channel"] == session_id

    run(scenario())


def test_the_sender_hears_a_transfer_nobody_took(live_app, kiosk, owner):
    sender = factories.AgentFactory(owner=owner, name="Ann")
    receiver = factories.AgentFactory(owner=owner, name="Bea")
    sender_headers, receiver_headers = agent_headers(sender), agent_headers(receiver)
    session = factories.SessionFactory(kiosk=kiosk)
    # the routing tick runs in the server's process (TASK_MODE thread); offers last 1 s
    server = live_app(TASK_MODE="thread", ROUTING_OFFER_SECONDS="1", ROUTING_TICK_SECONDS="0.2")

    async def scenario():
        on_sender = await subscribe_via(server, "/broadcasting/auth", sender_headers, f"private-agent.{sender.pk}")
        # holding its channel, the receiver is signed in (and hears the offer come and go)
        on_receiver = await subscribe_via(
            server, "/broadcasting/auth", receiver_headers, f"private-agent.{receiver.pk}"
        )
        incoming = await hand_over(server, session, sender_headers, receiver, on_receiver)
        assert incoming["transfer_from"] == {"id": str(sender.pk), "name": "Ann"}
        lapsed = await on_sender.next("TransferLapsed", timeout=10)
        assert lapsed["data"] == {"session_id": session.public_id, "status": "active", "reason": "no_answer"}
        withdrawn = (await on_receiver.next("SessionWithdrawn"))["data"]
        assert withdrawn == {"session_id": session.public_id, "status": "active", "reason": "offer_expired"}

    run(scenario())


def test_a_cancelled_transfer_is_withdrawn_from_the_receiver_and_the_sender_keeps_the_session(live_app, kiosk, owner):
    sender = factories.AgentFactory(owner=owner, name="Ann")
    receiver = factories.AgentFactory(owner=owner, name="Bea")
    sender_headers, receiver_headers = agent_headers(sender), agent_headers(receiver)
    session = factories.SessionFactory(kiosk=kiosk)
    server = live_app()

    async def scenario():
        on_sender = await subscribe_via(server, "/broadcasting/auth", sender_headers, f"private-agent.{sender.pk}")
        on_receiver = await subscribe_via(
            server, "/broadcasting/auth", receiver_headers, f"private-agent.{receiver.pk}"
        )
        await hand_over(server, session, sender_headers, receiver, on_receiver)
        path = f"/api/sessions/{session.public_id}/transfer"
        status, body = await asyncio.to_thread(http, server, "DELETE", path, None, sender_headers)
        assert (status, body) == (204, None)
        withdrawn = (await on_receiver.next("SessionWithdrawn"))["data"]
        while withdrawn["reason"] != "transfer_cancelled":  # the queue offer's end, before the transfer
            withdrawn = (await on_receiver.next("SessionWithdrawn"))["data"]
        assert withdrawn == {"session_id": session.public_id, "status": "active", "reason": "transfer_cancelled"}
        lapsed = (await on_sender.next("TransferLapsed"))["data"]
        assert lapsed == {"session_id": session.public_id, "status": "active", "reason": "cancelled"}
        accept = f"/api/sessions/{session.public_id}/accept"
        status, body = await asyncio.to_thread(http, server, "POST", accept, {}, receiver_headers)
        assert (status, body["error"]["code"]) == (409, "SESSION_ALREADY_ACCEPTED")
        status, body = await asyncio.to_thread(http, server, "GET", "/api/sessions/current", None, sender_headers)
        assert (status, body["session"]["id"], body["session"]["handed_over_to"]) == (200, session.public_id, None)

    run(scenario())
