"""The Pusher protocol on the wire, against a real daphne: handshake refusals and their close
codes, subscriptions and their refusals, client events, presence, ping/pong (the idle close:
test_realtime_keepalive.py)."""

import asyncio
import json
import uuid

import pytest
import websockets
from django.conf import settings

from apps.realtime import protocol
from apps.realtime.signing import channel_auth
from tests.support.processes import start_daphne, stop_daphne
from tests.support.realtime import PusherSocket, closed_with, library, nothing_more, run, until_subscriptions

pytestmark = pytest.mark.live


def presence_auth(client: PusherSocket, channel: str, user_id, info: dict) -> tuple[str, str]:
    channel_data = json.dumps({"user_id": user_id, "user_info": info})
    return channel_auth(client.socket_id, channel, channel_data), channel_data


@pytest.mark.parametrize(
    ("key", "query", "code"),
    [
        ("not-our-key", "protocol=7", protocol.UNKNOWN_APP),
        (None, "client=js", protocol.NO_PROTOCOL),
        (None, "protocol=3", protocol.UNSUPPORTED_PROTOCOL),
    ],
    ids=["unknown key 4001", "no protocol 4008", "old protocol 4007"],
)
def test_refused_handshakes_send_the_error_then_close_with_its_code(protocol_server, key, query, code):
    async def scenario():
        async with websockets.connect(protocol_server.ws_url(key, query)) as ws:
            message = json.loads(await ws.recv())
            assert message["event"] == "pusher:error"
            assert json.loads(message["data"])["code"] == code
            assert await closed_with(ws) == code

    run(scenario())


def test_public_and_private_subscriptions_succeed_with_data_as_a_string(protocol_server):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        public = await client.subscribe("news")
        assert public == {"event": "pusher_internal:subscription_succeeded", "channel": "news", "data": {}}
        private = await client.subscribe("private-agent.7", channel_auth(client.socket_id, "private-agent.7"))
        assert private["event"] == "pusher_internal:subscription_succeeded"
        await client.send("pusher:ping")
        assert (await client.next())["event"] == "pusher:pong"
        await client.close()

    run(scenario())


def test_a_bad_signature_is_a_subscription_error_on_that_channel_and_nothing_is_delivered(protocol_server):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        forged = f"{settings.REALTIME_APP_KEY}:{'0' * 64}"
        reply = await client.subscribe("private-agent.7", forged)
        assert reply["event"] == "pusher:subscription_error"
        assert reply["channel"] == "private-agent.7"
        assert reply["data"]["type"] == "AuthError" and reply["data"]["status"] == 401
        await asyncio.to_thread(library(protocol_server).trigger, "private-agent.7", "SessionIncoming", {"x": 1})
        await nothing_more(protocol_server, {client: None})

    run(scenario())


def test_a_signature_for_one_agent_channel_does_not_open_another_agents(protocol_server):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        own = channel_auth(client.socket_id, "private-agent.7")
        assert (await client.subscribe("private-agent.8", own))["event"] == "pusher:subscription_error"
        other = await PusherSocket.open(protocol_server.ws_url())  # a signature for another socket
        stolen = channel_auth(other.socket_id, "private-agent.8")
        assert (await client.subscribe("private-agent.8", stolen))["event"] == "pusher:subscription_error"

    run(scenario())


def test_client_events_only_on_joined_private_channels_and_never_echoed(protocol_server):
    async def scenario():
        sender = await PusherSocket.open(protocol_server.ws_url())
        receiver = await PusherSocket.open(protocol_server.ws_url())
        await sender.subscribe("news")
        await sender.send("client-typing", {"a": 1}, channel="news")
        error = await sender.next("pusher:error")
        assert error["data"]["code"] == protocol.UNAUTHORIZED
        await sender.send("client-typing", {"a": 1}, channel="private-kiosk.3")  # not joined
        assert (await sender.next("pusher:error"))["data"]["code"] == protocol.UNAUTHORIZED
        for client in (sender, receiver):
            await client.subscribe("private-kiosk.3", channel_auth(client.socket_id, "private-kiosk.3"))
        await sender.send("client-typing", {"a": 1}, channel="private-kiosk.3")
        got = await receiver.next("client-typing")
        assert got["channel"] == "private-kiosk.3" and got["data"] == {"a": 1}
        await nothing_more(protocol_server, {sender: "private-kiosk.3"}, acted=[sender])

    run(scenario())


def test_client_events_over_ten_a_second_are_rejected(protocol_server):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        await client.subscribe("private-kiosk.4", channel_auth(client.socket_id, "private-kiosk.4"))
        # The limit counts per clock second: twice the limit and more guarantees one second
        # over it even when the burst straddles a second boundary (a loaded machine).
        for n in range(2 * protocol.CLIENT_EVENTS_PER_SECOND + 2):
            await client.send("client-tick", {"n": n}, channel="private-kiosk.4")
        assert (await client.next("pusher:error"))["data"]["code"] == protocol.CLIENT_EVENT_RATE_LIMIT

    run(scenario())


def test_presence_members_added_once_per_user_and_removed_with_the_last_connection(protocol_server):
    channel = "presence-owner.42"

    async def join(user_id, info):
        client = await PusherSocket.open(protocol_server.ws_url())
        auth, channel_data = presence_auth(client, channel, user_id, info)
        return client, await client.subscribe(channel, auth, channel_data)

    async def scenario():
        owner, first = await join("user.1", {"name": "Olive"})
        assert first["data"] == {"presence": {"ids": ["user.1"], "hash": {"user.1": {"name": "Olive"}}, "count": 1}}
        kiosk, joined = await join(12, {"id": "12", "name": "Front", "location": "Door"})
        presence = joined["data"]["presence"]
        assert presence["count"] == 2 and set(presence["ids"]) == {"user.1", 12}  # ids as signed
        added = await owner.next("pusher_internal:member_added")
        assert added["data"] == {"user_id": 12, "user_info": {"id": "12", "name": "Front", "location": "Door"}}
        await nothing_more(protocol_server, {kiosk: channel, owner: channel})  # member_added goes to the others only
        second, _ = await join(12, {"id": "12", "name": "Front", "location": "Door"})
        # The same user again: no second member_added (the join's publish follows its reply).
        await nothing_more(protocol_server, {owner: channel, kiosk: channel}, acted=[second])
        await second.close()
        await until_subscriptions(protocol_server, channel, 2)  # the server has handled the close
        await nothing_more(protocol_server, {owner: channel, kiosk: channel})  # one of its connections is still there
        await kiosk.send("pusher:unsubscribe", {"channel": channel})
        removed = await owner.next("pusher_internal:member_removed")
        assert removed["data"] == {"user_id": 12}
        await owner.close()

    run(scenario())


def test_presence_needs_valid_channel_data_signed_as_sent(protocol_server):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        auth, channel_data = presence_auth(client, "presence-owner.5", "user.1", {})
        tampered = channel_data.replace("user.1", "user.2")
        assert (await client.subscribe("presence-owner.5", auth, tampered))["event"] == "pusher:subscription_error"
        no_data = await client.subscribe("presence-owner.5", auth)
        assert no_data["event"] == "pusher:subscription_error"

    run(scenario())


def test_pusher_channel_names_with_odd_characters_map_to_groups(protocol_server):
    name = "private-odd=@,;." + "x" * (protocol.MAX_CHANNEL_NAME - 16)

    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        assert (await client.subscribe(name, channel_auth(client.socket_id, name)))["event"].endswith("succeeded")
        await asyncio.to_thread(library(protocol_server).trigger, name, "Odd", {"ok": True})
        got = await client.next("Odd")
        assert got["channel"] == name and got["data"] == {"ok": True}
        invalid = "x" * (protocol.MAX_CHANNEL_NAME + 1)
        await client.send("pusher:subscribe", {"channel": invalid})
        assert (await client.next("pusher:error"))["data"]["code"] == protocol.INVALID_MESSAGE

    run(scenario())


def test_garbage_frames_get_an_error_and_the_connection_stays(protocol_server):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        await client.ws.send("not json")
        assert (await client.next("pusher:error"))["data"]["code"] == protocol.INVALID_MESSAGE
        await client.send("pusher:ping")
        assert (await client.next())["event"] == "pusher:pong"

    run(scenario())


def test_a_process_over_its_connection_quota_refuses_with_4004(tmp_path):
    server = start_daphne(tmp_path, REALTIME_MAX_CONNECTIONS="1")
    try:

        async def scenario():
            first = await PusherSocket.open(server.ws_url())
            async with websockets.connect(server.ws_url()) as ws:
                assert json.loads(json.loads(await ws.recv())["data"])["code"] == protocol.OVER_CONNECTION_QUOTA
                assert await closed_with(ws) == protocol.OVER_CONNECTION_QUOTA
            await first.close()

        run(scenario())
    finally:
        stop_daphne(server)


def test_two_processes_share_broadcasts_and_the_presence_member_list(server_pair):
    first, second = server_pair
    channel = f"presence-owner.{uuid.uuid4().hex[:8]}"  # the servers outlive the test

    async def scenario():
        on_first = await PusherSocket.open(first.ws_url())
        auth, data = presence_auth(on_first, channel, "user.1", {"name": "A"})
        await on_first.subscribe(channel, auth, data)
        on_second = await PusherSocket.open(second.ws_url())
        auth, data = presence_auth(on_second, channel, "kiosk.2", {"name": "B"})
        joined = await on_second.subscribe(channel, auth, data)
        assert set(joined["data"]["presence"]["ids"]) == {"user.1", "kiosk.2"}
        assert (await on_first.next("pusher_internal:member_added"))["data"]["user_id"] == "kiosk.2"
        await asyncio.to_thread(library(first).trigger, channel, "KioskStatusChanged", {"online": True})
        assert (await on_second.next("KioskStatusChanged"))["data"] == {"online": True}
        await on_second.close()
        assert (await on_first.next("pusher_internal:member_removed"))["data"]["user_id"] == "kiosk.2"
        await on_first.close()

    run(scenario())
