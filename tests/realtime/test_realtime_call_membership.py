"""A call-channel signature does not outlive its signer's membership: the WebSocket server asks the
channel's rule at every subscription, so after a transfer the old agent's socket cannot subscribe
again with the signature it was given, nor can either side after the session's end; a signature
that names nobody (Pusher's plain private-channel one) is refused too."""

import asyncio

import pytest
from django.utils import timezone

from apps.realtime.signing import channel_auth
from tests import factories
from tests.support.realtime import PusherSocket, agent_headers, http, nothing_more, run, subscribe_via

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

AGENT_AUTH = "/broadcasting/auth"
KIOSK_AUTH = "/api/public/broadcasting/auth"
OFFER = {"call": "c1", "sdp": "v=0"}
SUCCEEDED = "pusher_internal:subscription_succeeded"


def device(kiosk) -> dict:
    return {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}


async def signed_on(server, path: str, headers: dict, channel: str) -> tuple[PusherSocket, dict]:
    """A socket subscribed to `channel` with the signature the auth endpoint gave it (kept)."""
    socket = await PusherSocket.open(server.ws_url())
    body = {"socket_id": socket.socket_id, "channel_name": channel}
    status, signed = await asyncio.to_thread(http, server, "POST", path, body, headers)
    assert status == 200, signed
    reply = await socket.subscribe(channel, signed["auth"], signed.get("channel_data"))
    assert reply["event"] == SUCCEEDED, reply
    return socket, signed


async def replayed(socket: PusherSocket, channel: str, signed: dict) -> dict:
    return await socket.subscribe(channel, signed["auth"], signed.get("channel_data"))


def refused_now(reply: dict, channel: str) -> None:
    assert (reply["event"], reply["channel"]) == ("pusher:subscription_error", channel), reply
    assert reply["data"]["status"] == 403, reply


def test_after_a_transfer_the_old_agents_kept_signature_is_refused(live_app, kiosk, owner):
    sender = factories.AgentFactory(owner=owner, name="Ann", languages=["en"])
    receiver = factories.AgentFactory(owner=owner, name="Bea", languages=["es"])
    session = factories.SessionFactory(kiosk=kiosk, agent=sender, status="active", accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    sender_auth, receiver_auth = agent_headers(sender), agent_headers(receiver)
    server = live_app()

    async def scenario():
        await subscribe_via(server, AGENT_AUTH, receiver_auth, f"private-agent.{receiver.pk}")  # signed in
        on_kiosk, kiosk_signed = await signed_on(server, KIOSK_AUTH, device(kiosk), channel)
        on_sender, sender_signed = await signed_on(server, AGENT_AUTH, sender_auth, channel)
        transfer = f"/api/sessions/{session.public_id}/transfer"
        status, body = await asyncio.to_thread(http, server, "POST", transfer, {"language": "es"}, sender_auth)
        assert status == 202, body
        accept = f"/api/sessions/{session.public_id}/accept"
        status, body = await asyncio.to_thread(http, server, "POST", accept, {}, receiver_auth)
        assert status == 200, body
        for socket in (on_kiosk, on_sender):
            assert (await socket.next("CallMembershipChanged"))["data"]["reason"] == "transferred"

        # The same socket, the same signature: the old agent is no member now.
        refused_now(await replayed(on_sender, channel, sender_signed), channel)
        # The kiosk still is: its kept signature lets it back; the new agent joins; the old agent
        # hears none of their signalling.
        assert (await replayed(on_kiosk, channel, kiosk_signed))["event"] == SUCCEEDED
        on_receiver = await subscribe_via(server, AGENT_AUTH, receiver_auth, channel)
        await on_kiosk.send("client-offer", OFFER, channel)
        assert (await on_receiver.next("client-offer"))["data"] == OFFER
        await nothing_more(server, {on_sender: None})  # it was dropped from the call's channel

    run(scenario())


def test_after_the_end_neither_side_gets_back_in_with_its_kept_signature(live_app, kiosk, agent):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    agent_auth = agent_headers(agent)
    server = live_app()

    async def scenario():
        on_kiosk, kiosk_signed = await signed_on(server, KIOSK_AUTH, device(kiosk), channel)
        on_agent, agent_signed = await signed_on(server, AGENT_AUTH, agent_auth, channel)
        end = f"/api/sessions/{session.public_id}/end"
        status, body = await asyncio.to_thread(http, server, "POST", end, {"reason": "completed"}, agent_auth)
        assert status == 200, body
        for socket in (on_kiosk, on_agent):
            assert (await socket.next("CallMembershipChanged"))["data"]["reason"] == "ended"
        refused_now(await replayed(on_agent, channel, agent_signed), channel)
        refused_now(await replayed(on_kiosk, channel, kiosk_signed), channel)
        await on_kiosk.send("client-offer", OFFER, channel)  # and so nothing it sends gets through
        assert (await on_kiosk.next("pusher:error"))["data"]["code"] == 4009
        await nothing_more(server, {on_agent: None})

    run(scenario())


def test_a_call_signature_names_its_signer_and_one_that_names_nobody_is_refused(live_app, kiosk, agent):
    session = factories.SessionFactory(kiosk=kiosk, agent=agent, status="active", accepted_at=timezone.now())
    channel = f"private-call.{session.public_id}"
    server = live_app()

    async def scenario():
        on_kiosk, signed = await signed_on(server, KIOSK_AUTH, device(kiosk), channel)
        assert signed["channel_data"] == f'{{"user_id":"kiosk.{kiosk.pk}"}}'
        stranger = await PusherSocket.open(server.ws_url())
        # Pusher's plain private-channel signature for this very socket: valid, but names no member.
        refused_now(await stranger.subscribe(channel, channel_auth(stranger.socket_id, channel)), channel)
        # A signature naming someone who never was a member (made with the app's secret) is refused too.
        data = f'{{"user_id":"kiosk.{kiosk.pk + 1000}"}}'
        refused_now(await stranger.subscribe(channel, channel_auth(stranger.socket_id, channel, data), data), channel)
        await stranger.send("client-offer", OFFER, channel)
        assert (await stranger.next("pusher:error"))["data"]["code"] == 4009
        await nothing_more(server, {on_kiosk: channel})

    run(scenario())
