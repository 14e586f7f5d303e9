"""What one connection may not do to the server, against a real daphne: hold more than its share
of subscriptions (4303, the connection stays), use a channel name Pusher would refuse (over 164
characters, outside [A-Za-z0-9_\\-=@,.;]: 4302), crash it with a frame nested too deep for the
parser (4302, not a 1011 close), or, with REQUIRE_TLS on, connect over plain HTTP (4000, the
HTTP surfaces' rule for X-Forwarded-Proto). And presence member ids come back with the JSON type
they were signed with."""

import asyncio
import json

import pytest
import websockets

from apps.realtime import protocol
from apps.realtime.signing import channel_auth
from tests.support.processes import start_daphne, stop_daphne
from tests.support.realtime import PusherSocket, closed_with, library, run

pytestmark = pytest.mark.live

SUCCEEDED = "pusher_internal:subscription_succeeded"

# The tests with a cap or proxy rule of their own start their own servers; the others use the
# worker's shared one (protocol_server), whose Redis prefix an own server's stop leaves alone.


async def still_answers(client: PusherSocket) -> None:
    await client.send("pusher:ping")
    assert (await client.next("pusher:pong"))["event"] == "pusher:pong"


def test_a_connection_holds_at_most_its_cap_of_subscriptions(tmp_path):
    server = start_daphne(tmp_path, REALTIME_MAX_SUBSCRIPTIONS_PER_CONNECTION="3")
    try:

        async def scenario():
            client = await PusherSocket.open(server.ws_url())
            for name in ("news-1", "news-2", "private-agent.7"):
                auth = channel_auth(client.socket_id, name) if name.startswith("private-") else None
                assert (await client.subscribe(name, auth))["event"] == SUCCEEDED
            await client.send("pusher:subscribe", {"channel": "news-4"})
            error = await client.next()
            assert (error["event"], error["data"]["code"]) == ("pusher:error", protocol.OVER_SUBSCRIPTION_LIMIT)
            refused = await client.next()
            assert (refused["event"], refused["channel"]) == ("pusher:subscription_error", "news-4")
            assert refused["data"]["status"] == 429
            assert (await client.subscribe("news-1"))["event"] == SUCCEEDED  # held already: no new slot
            await client.send("pusher:unsubscribe", {"channel": "news-2"})
            assert (await client.subscribe("news-4"))["event"] == SUCCEEDED  # a slot given back
            other = await PusherSocket.open(server.ws_url())  # the cap is per connection
            assert (await other.subscribe("news-5"))["event"] == SUCCEEDED
            await still_answers(client)

        run(scenario())
    finally:
        stop_daphne(server)


def test_with_require_tls_a_plain_upgrade_is_refused_with_4000_unless_a_trusted_proxy_says_https(tmp_path):
    behind = start_daphne(tmp_path / "a", REQUIRE_TLS="1", TRUST_PROXY="1", TRUSTED_PROXIES="127.0.0.1")
    exposed = start_daphne(tmp_path / "b", REQUIRE_TLS="1", TRUST_PROXY="1", TRUSTED_PROXIES="10.9.9.9")
    https = {"X-Forwarded-Proto": "https"}
    try:

        async def refused(url: str, headers: dict | None = None) -> tuple[int, int]:
            async with websockets.connect(url, open_timeout=5, additional_headers=headers) as ws:
                error = json.loads(await ws.recv())
                assert error["event"] == "pusher:error", error
                return json.loads(error["data"])["code"], await closed_with(ws)

        async def scenario():
            ssl_only = (protocol.SSL_ONLY, protocol.SSL_ONLY)
            assert await refused(behind.ws_url()) == ssl_only
            assert await refused(behind.ws_url(), {"X-Forwarded-Proto": "http"}) == ssl_only
            assert await refused(exposed.ws_url(), https) == ssl_only  # not from a trusted proxy: ignored
            async with websockets.connect(behind.ws_url(), open_timeout=5, additional_headers=https) as ws:
                assert json.loads(await ws.recv())["event"] == "pusher:connection_established"

        run(scenario())
    finally:
        stop_daphne(behind)
        stop_daphne(exposed)


@pytest.mark.parametrize(
    "name",
    ["x" * 165, "news#1", "news 1", "news/1", "ключ", "news\n", ""],
    ids=["165 characters", "hash", "space", "slash", "not ascii", "newline", "empty"],
)
def test_channel_names_pusher_would_refuse_are_refused(protocol_server, name):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        assert (await client.subscribe(name))["data"]["code"] == protocol.INVALID_MESSAGE
        longest = "private-=@,;._-" + "x" * (164 - 15)  # the whole alphabet, Pusher's 164 characters
        assert (await client.subscribe(longest, channel_auth(client.socket_id, longest)))["event"] == SUCCEEDED

    run(scenario())


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("[" * 100_000, protocol.INVALID_MESSAGE),
        ('{"event":"pusher:subscribe","data":"' + "[" * 100_000 + '"}', protocol.INVALID_MESSAGE),
        ('{"event":"client-x","channel":["private-a"],"data":{}}', protocol.UNAUTHORIZED),
        ('{"event":"pusher:unsubscribe","data":{"channel":["news"]}}', None),  # ignored, as Pusher does
    ],
    ids=["nested frame", "nested data string", "channel is a list", "unsubscribe from a list"],
)
def test_frames_that_crashed_the_consumer_get_a_protocol_error_and_the_connection_stays(protocol_server, frame, code):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        await client.ws.send(frame)
        if code is not None:
            assert (await client.next("pusher:error"))["data"]["code"] == code
        await still_answers(client)

    run(scenario())


def test_presence_member_ids_come_back_with_the_type_they_were_signed_with(protocol_server):
    channel = "presence-typed.1"

    async def join(user_id):
        client = await PusherSocket.open(protocol_server.ws_url())
        channel_data = json.dumps({"user_id": user_id, "user_info": {"n": user_id}})
        reply = await client.subscribe(channel, channel_auth(client.socket_id, channel, channel_data), channel_data)
        assert reply["event"] == SUCCEEDED, reply
        return client, reply["data"]["presence"]

    async def scenario():
        first, presence = await join(2)
        assert presence == {"ids": [2], "hash": {"2": {"n": 2}}, "count": 1}
        second, presence = await join("2")  # the string is another member, and stays a string
        assert presence["count"] == 2 and {(type(i), i) for i in presence["ids"]} == {(int, 2), (str, "2")}
        assert (await first.next("pusher_internal:member_added"))["data"] == {"user_id": "2", "user_info": {"n": "2"}}
        await first.close()
        assert (await second.next("pusher_internal:member_removed", timeout=10))["data"] == {"user_id": 2}
        third, presence = await join(2)
        assert presence["count"] == 2 and 2 in presence["ids"]
        assert (await second.next("pusher_internal:member_added"))["data"]["user_id"] == 2
        users = await asyncio.to_thread(library(protocol_server).users_info, channel)
        assert users == {"users": [{"id": "2"}]}  # the HTTP API lists ids as strings, as Pusher's does
        for client in (second, third):
            await client.close()

    run(scenario())


@pytest.mark.parametrize("user_id", [True, 1.5, ["a"], {"a": 1}, ""], ids=["bool", "float", "list", "object", "empty"])
def test_a_presence_user_id_is_a_string_or_an_integer(protocol_server, user_id):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        channel_data = json.dumps({"user_id": user_id})
        auth = channel_auth(client.socket_id, "presence-typed.2", channel_data)
        assert (await client.subscribe("presence-typed.2", auth, channel_data))["event"] == "pusher:subscription_error"
        await still_answers(client)

    run(scenario())


def test_deeply_nested_client_event_data_arrives_as_sent(protocol_server):
    """A client event's data travels as its JSON string (encoded once, where a structure too deep
    to encode is refused with 4302 rather than crashing the consumer): the listener gets it whole."""
    channel = "private-deep.1"

    async def scenario():
        sender, listener = [await PusherSocket.open(protocol_server.ws_url()) for _ in range(2)]
        for client in (sender, listener):
            assert (await client.subscribe(channel, channel_auth(client.socket_id, channel)))["event"] == SUCCEEDED
        deep = json.loads("[" * 600 + "]" * 600)
        await sender.send("client-deep", deep, channel)
        assert (await listener.next("client-deep"))["data"] == deep
        await still_answers(sender)

    run(scenario())
