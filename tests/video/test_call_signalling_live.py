"""The call channel over a real server, as the WebSocket clients see it: only the session's kiosk
and its current agent exchange signalling. A third party (another kiosk, a colleague not on the
session, another owner's agent) is refused a signature and cannot inject a client event, signed
or not; after a transfer the old agent is dropped from the channel (CallMembershipChanged), can
neither send nor be signed again, and the kiosk and the new agent signal each other."""

import asyncio

import pytest
from django.utils import timezone

from apps.realtime import protocol as p
from apps.realtime.signing import channel_auth
from tests import factories
from tests.support.realtime import PusherSocket, agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

AGENT_AUTH = "/broadcasting/auth"
KIOSK_AUTH = "/api/public/broadcasting/auth"
OFFER = {"call": "c1", "sdp": "v=0"}


def device(kiosk) -> dict:
    return {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}


async def signature(server, path: str, headers: dict, socket: PusherSocket, channel: str):
    body = {"socket_id": socket.socket_id, "channel_name": channel}
    return await asyncio.to_thread(http, server, "POST", path, body, headers)


async def refused_everywhere(server, path: str, headers: dict, channel: str, *, listeners) -> None:
    """Refused a signature; with none, a forged one or a member's (made for another socket) it is
    not let in, and its client events are refused and reach nobody."""
    intruder = await PusherSocket.open(server.ws_url())
    status, body = await signature(server, path, headers, intruder, channel)
    assert (status, body["error"]["code"]) == (403, "FORBIDDEN")
    for auth in (None, f"{intruder.socket_id}:forged", channel_auth(listeners[0].socket_id, channel)):
        reply = await intruder.subscribe(channel, auth)
        assert reply["event"] == "pusher:subscription_error", reply
    await intruder.send("client-offer", OFFER, channel)
    error = await intruder.next("pusher:error")
    assert error["data"]["code"] == p.UNAUTHORIZED
    await nothing_more(server, dict.fromkeys(listeners, channel))
    await intruder.close()


def test_a_third_party_cannot_join_or_inject_signalling(live_app, kiosk, agent, business, owner, other_business):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    other_kiosk = factories.KioskFactory(business=business)
    colleague = factories.AgentFactory(owner=owner)
    stranger = factories.AgentFactory(owner=other_business.owner)
    agent_auth, colleague_auth, stranger_auth = (agent_headers(a) for a in (agent, colleague, stranger))
    server = live_app()

    async def scenario():
        on_kiosk = await subscribe_via(server, KIOSK_AUTH, device(kiosk), channel)
        on_agent = await subscribe_via(server, AGENT_AUTH, agent_auth, channel)
        await on_agent.send("client-offer", OFFER, channel)  # the two members do signal each other
        assert (await on_kiosk.next("client-offer"))["data"] == OFFER
        listeners = (on_kiosk, on_agent)
        await refused_everywhere(server, KIOSK_AUTH, device(other_kiosk), channel, listeners=listeners)
        await refused_everywhere(server, AGENT_AUTH, colleague_auth, channel, listeners=listeners)
        await refused_everywhere(server, AGENT_AUTH, stranger_auth, channel, listeners=listeners)

    run(scenario())


def test_after_a_transfer_only_the_new_agent_signals_with_the_kiosk(live_app, kiosk, owner):
    sender = factories.AgentFactory(owner=owner, name="Ann", languages=["en"])
    receiver = factories.AgentFactory(owner=owner, name="Bea", languages=["es"])
    session = factories.SessionFactory(kiosk=kiosk, agent=sender, status="active", accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    sender_auth, receiver_auth = agent_headers(sender), agent_headers(receiver)
    server = live_app()

    async def scenario():
        await subscribe_via(server, AGENT_AUTH, receiver_auth, f"private-agent.{receiver.pk}")  # signed in
        on_kiosk = await subscribe_via(server, KIOSK_AUTH, device(kiosk), channel)
        on_sender = await subscribe_via(server, AGENT_AUTH, sender_auth, channel)
        path = f"/api/sessions/{session.public_id}/transfer"
        status, body = await asyncio.to_thread(http, server, "POST", path, {"language": "es"}, sender_auth)
        assert status == 202, body
        accept = f"/api/sessions/{session.public_id}/accept"
        status, body = await asyncio.to_thread(http, server, "POST", accept, {}, receiver_auth)
        assert status == 200, body

        changed = {"session_id": session.public_id, "reason": "transferred", "agent_id": str(receiver.pk)}
        for socket in (on_kiosk, on_sender):
            message = await socket.next("CallMembershipChanged")
            assert (message["channel"], message["data"]) == (channel, changed)
        # The old agent is off the channel: its offer is refused and reaches nobody; no new signature.
        await on_sender.send("client-offer", OFFER, channel)
        assert (await on_sender.next("pusher:error"))["data"]["code"] == p.UNAUTHORIZED
        await nothing_more(server, {on_kiosk: None})  # dropped from the call's channel too
        status, body = await signature(server, AGENT_AUTH, sender_auth, on_sender, channel)
        assert (status, body["error"]["code"]) == (403, "FORBIDDEN")

        # The kiosk is signed again, the new agent joins, and they signal each other only.
        status, signed = await signature(server, KIOSK_AUTH, device(kiosk), on_kiosk, channel)
        assert status == 200, signed
        reply = await on_kiosk.subscribe(channel, signed["auth"], signed["channel_data"])
        assert reply["event"] == "pusher_internal:subscription_succeeded"
        on_receiver = await subscribe_via(server, AGENT_AUTH, receiver_auth, channel)
        await on_receiver.send("client-offer", OFFER, channel)
        assert (await on_kiosk.next("client-offer"))["data"] == OFFER
        await on_kiosk.send("client-answer", {"call": "c1", "sdp": "v=0 answer"}, channel)
        assert (await on_receiver.next("client-answer"))["data"]["sdp"] == "v=0 answer"
        await nothing_more(server, {on_sender: None})

    run(scenario())


def test_when_the_session_ends_both_sides_are_dropped_from_the_call(live_app, kiosk, agent):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    agent_auth = agent_headers(agent)
    server = live_app()

    async def scenario():
        on_kiosk = await subscribe_via(server, KIOSK_AUTH, device(kiosk), channel)
        on_agent = await subscribe_via(server, AGENT_AUTH, agent_auth, channel)
        path = f"/api/sessions/{session.public_id}/end"
        status, body = await asyncio.to_thread(http, server, "POST", path, {"reason": "completed"}, agent_auth)
        assert status == 200, body

        ended = {"session_id": session.public_id, "reason": "ended", "agent_id": None}
        for socket in (on_kiosk, on_agent):
            message = await socket.next("CallMembershipChanged")
            assert (message["channel"], message["data"]) == (channel, ended)
        # Neither side may signal the other any more, nor be signed again.
        for sender, listener in ((on_agent, on_kiosk), (on_kiosk, on_agent)):
            await sender.send("client-offer", OFFER, channel)
            assert (await sender.next("pusher:error"))["data"]["code"] == p.UNAUTHORIZED
            await nothing_more(server, {listener: None})
        for path, headers, socket in ((AGENT_AUTH, agent_auth, on_agent), (KIOSK_AUTH, device(kiosk), on_kiosk)):
            status, body = await signature(server, path, headers, socket, channel)
            assert (status, body["error"]["code"]) == (403, "FORBIDDEN")

    run(scenario())
