"""User authentication (`pusher:signin`) against live daphne servers with real WebSocket clients,
and the HTTP API's user endpoints called by the official `pusher` library (`authenticate_user`
signs, `send_to_user`, `terminate_user_connections`) or signed as it signs: sign-in succeeds with
a good signature and is refused (4009, closed) with a bad one or without a usable id; an event sent
to a user reaches every connection of that user and no other, on every web process; terminate
closes them; the endpoints refuse a bad signature; and unmodified pusher-js does all that."""

import json
import uuid

import pytest
from django.conf import settings
from pusher.errors import PusherBadAuth, PusherBadRequest, PusherBadStatus
from pusher.http import POST, Request

from apps.realtime import protocol, signing
from tests.support.realtime import (
    PusherSocket,
    call,
    error_then_close,
    library,
    needs_redis,
    nothing_more,
    run,
    run_scenario,
)

pytestmark = pytest.mark.live


def user_id() -> str:
    return f"user.{uuid.uuid4().hex[:10]}"


async def signed_in(server, user: str, **user_info) -> PusherSocket:
    """A socket signed in as `user`, the signature made as an integrator's endpoint makes it."""
    client = await PusherSocket.open(server.ws_url())
    signed = library(server).authenticate_user(client.socket_id, {"id": user, **user_info})
    await client.send("pusher:signin", signed)
    success = await client.next()
    assert success == {"event": "pusher:signin_success", "data": {"user_data": signed["user_data"]}}, success
    return client


def to_user(server, user: str, body: dict, *, secret: str | None = None) -> dict:
    """POST /apps/{id}/users/{user}/events, signed and sent by the library's own request machinery
    (it has no call of its name), so its errors are the library's (PusherBadAuth, ...)."""
    client = library(server, secret=secret)._pusher_client
    request = Request(client, POST, f"/apps/{settings.REALTIME_APP_ID}/users/{user}/events", body)
    return client.http.send_request(request)


def test_send_to_user_reaches_every_connection_of_that_user_and_no_other(protocol_server):
    api = library(protocol_server)
    alice, bob = user_id(), user_id()

    async def scenario():
        alice_tabs = [await signed_in(protocol_server, alice, user_info={"name": "Alice"}) for _ in range(2)]
        bob_tab = await signed_in(protocol_server, bob)
        await call(api.send_to_user, alice, "Note", {"text": "hello"})  # the library: /events, #server-to-user-
        await call(to_user, protocol_server, alice, {"name": "Note", "data": '{"text":"again"}'})
        for tab in alice_tabs:
            for text in ("hello", "again"):
                assert await tab.next() == {
                    "event": "Note",
                    "channel": f"#server-to-user-{alice}",
                    "data": {"text": text},
                }
        await call(api.send_to_user, bob, "Note", {"text": "for bob"})
        assert (await bob_tab.next())["data"] == {"text": "for bob"}  # Alice's two never reached Bob

    run(scenario())


def test_pusher_js_subscribes_to_its_own_user_group_and_no_one_elses(protocol_server):
    alice = user_id()

    async def scenario():
        tab = await signed_in(protocol_server, alice)
        own = await tab.subscribe(f"#server-to-user-{alice}", "")
        assert own == {
            "event": "pusher_internal:subscription_succeeded",
            "channel": f"#server-to-user-{alice}",
            "data": {},
        }
        other = await tab.subscribe("#server-to-user-someone.else", "")
        assert other["event"] == "pusher:subscription_error" and other["data"]["status"] == 401
        stranger = await PusherSocket.open(protocol_server.ws_url())  # not signed in
        refused = await stranger.subscribe(f"#server-to-user-{alice}", "")
        assert refused["event"] == "pusher:subscription_error"
        await call(library(protocol_server).send_to_user, alice, "Note", {"n": 1})
        assert (await tab.next("Note"))["data"] == {"n": 1}
        await nothing_more(protocol_server, {stranger: None})

    run(scenario())


@pytest.mark.parametrize(
    "signin",
    [
        pytest.param(
            lambda sid: {"user_data": '{"id":"u1"}', "auth": signing.user_auth(sid, '{"id":"u2"}')}, id="other"
        ),
        pytest.param(
            lambda sid: {"user_data": '{"id":"u1"}', "auth": f"{settings.REALTIME_APP_KEY}:{'0' * 64}"}, id="forged"
        ),
        pytest.param(lambda sid: {"user_data": '{"id":"u1"}'}, id="unsigned"),
        pytest.param(lambda sid: "not an object", id="malformed"),
        pytest.param(
            lambda sid: {"user_data": '{"name":"x"}', "auth": signing.user_auth(sid, '{"name":"x"}')}, id="no-id"
        ),
        pytest.param(lambda sid: {"user_data": '{"id":5}', "auth": signing.user_auth(sid, '{"id":5}')}, id="number-id"),
        pytest.param(
            lambda sid: {"user_data": '{"id":"a b"}', "auth": signing.user_auth(sid, '{"id":"a b"}')}, id="bad-id"
        ),
        pytest.param(lambda sid: {"user_data": "[1]", "auth": signing.user_auth(sid, "[1]")}, id="not-an-object"),
    ],
)
def test_a_bad_signin_is_refused_with_4009_and_the_connection_closed(protocol_server, signin):
    async def scenario():
        client = await PusherSocket.open(protocol_server.ws_url())
        await client.send("pusher:signin", signin(client.socket_id))
        error = await error_then_close(client, protocol.UNAUTHORIZED)
        assert error["data"]["code"] == protocol.UNAUTHORIZED

    run(scenario())


def test_terminate_closes_a_signed_in_users_connections_only(protocol_server):
    api = library(protocol_server)
    alice, bob = user_id(), user_id()

    async def scenario():
        alice_tabs = [await signed_in(protocol_server, alice) for _ in range(2)]
        bob_tab = await signed_in(protocol_server, bob)
        await call(api.terminate_user_connections, alice)
        for tab in alice_tabs:
            error = await error_then_close(tab, protocol.UNAUTHORIZED)
            assert error["data"]["code"] == protocol.UNAUTHORIZED
        await call(api.send_to_user, bob, "Note", {"still": "here"})
        assert (await bob_tab.next())["data"] == {"still": "here"}

    run(scenario())


def test_signing_in_again_moves_the_connection_to_the_new_user(protocol_server):
    api = library(protocol_server)
    first, second = user_id(), user_id()

    async def scenario():
        tab = await signed_in(protocol_server, first)
        signed = api.authenticate_user(tab.socket_id, {"id": second})
        await tab.send("pusher:signin", signed)
        assert (await tab.next("pusher:signin_success"))["data"] == {"user_data": signed["user_data"]}
        await call(api.send_to_user, first, "Note", {"to": "first"})
        await call(api.send_to_user, second, "Note", {"to": "second"})
        assert (await tab.next("Note"))["data"] == {"to": "second"}  # the first user's event never came

    run(scenario())


def test_the_user_endpoints_refuse_a_bad_signature_and_bad_input(protocol_server):
    alice = user_id()
    stranger = library(protocol_server, secret="not-the-secret")
    with pytest.raises(PusherBadAuth):
        stranger.send_to_user(alice, "Note", {})
    with pytest.raises(PusherBadAuth):
        stranger.terminate_user_connections(alice)
    with pytest.raises(PusherBadAuth):
        to_user(protocol_server, alice, {"name": "Note", "data": "{}"}, secret="not-the-secret")
    with pytest.raises(PusherBadRequest):  # 400 MALFORMED_REQUEST, as terminate_connections answers
        to_user(protocol_server, "a:b", {"name": "Note", "data": "{}"})
    with pytest.raises(PusherBadStatus, match="422.*VALIDATION_ERROR"):  # as /events answers
        to_user(protocol_server, alice, {"name": "Note", "data": {"not": "a string"}})
    with pytest.raises(PusherBadStatus, match="422.*VALIDATION_ERROR"):
        to_user(protocol_server, alice, {"data": "{}"})  # no name


@needs_redis
def test_send_to_user_and_terminate_reach_the_user_on_every_web_process(server_pair):
    first, second = server_pair
    alice, bob = user_id(), user_id()

    async def scenario():
        on_first, on_second = await signed_in(first, alice), await signed_in(second, alice)
        bob_tab = await signed_in(first, bob)
        assert await call(to_user, second, alice, {"name": "Note", "data": json.dumps({"n": 1})}) == {}
        for tab in (on_first, on_second):
            assert (await tab.next("Note"))["data"] == {"n": 1}
        await call(library(first).terminate_user_connections, alice)
        for tab in (on_first, on_second):
            await error_then_close(tab, protocol.UNAUTHORIZED)
        await call(library(second).send_to_user, bob, "Note", {"n": 2})
        assert (await bob_tab.next("Note"))["data"] == {"n": 2}

    run(scenario())


def test_pusher_js_signs_in_hears_its_users_events_and_is_terminated(node, protocol_server):
    alice, bob = user_id(), user_id()
    seen = run_scenario(
        node,
        protocol_server,
        "user-signin",
        users=[alice, bob],
        app_id=str(settings.REALTIME_APP_ID),
        secret=settings.REALTIME_APP_SECRET,  # the integrator's user-authentication endpoint signs with it
    )
    assert seen["signed_in_as"] == {
        "alice1": {"id": alice, "user_info": {"name": alice}},
        "alice2": {"id": alice, "user_info": {"name": alice}},
        "bob": {"id": bob, "user_info": {"name": bob}},
    }
    assert seen["heard"] == {
        "alice1": [{"to": "alice"}],
        "alice2": [{"to": "alice"}],
        "bob": [{"to": "bob"}, {"to": "bob again"}],  # never Alice's
    }
    assert seen["forged_error"]["code"] == protocol.UNAUTHORIZED
    assert seen["forger_state"] == "disconnected"  # 4009: pusher-js does not reconnect
    assert seen["states"] == {"alice1": "disconnected", "alice2": "disconnected", "bob": "connected"}


@pytest.mark.parametrize(
    "channel", ["#server-to-user-", "#server-to-user-a b", "#someone", "#server-to-user-" + "x" * 201]
)
def test_events_refuses_a_user_group_name_without_a_valid_user_id(protocol_server, channel):
    client = library(protocol_server)._pusher_client
    body = {"name": "Note", "data": "{}", "channels": [channel]}
    request = Request(client, POST, f"/apps/{settings.REALTIME_APP_ID}/events", body)
    with pytest.raises(PusherBadStatus, match="422.*VALIDATION_ERROR"):
        client.http.send_request(request)
