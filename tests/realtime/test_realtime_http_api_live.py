"""The Pusher HTTP API's read side and terminate_connections against live daphne servers, called by
the official `pusher` library (`channels_info`, `channel_info`, `users_info`,
`terminate_user_connections`) while real WebSocket clients are subscribed: on one server (the
embedded default too), across two servers sharing Redis, and after one of them is SIGKILLed."""

import asyncio
import signal
import time
import uuid

import pytest
from pusher.errors import PusherBadAuth, PusherBadRequest, PusherBadStatus

from apps.realtime import protocol, signing
from tests.support.processes import wait_until
from tests.support.realtime import (
    PusherSocket,
    call,
    error_then_close,
    library,
    needs_redis,
    nothing_more,
    run,
)

pytestmark = pytest.mark.live


async def joined(server, channel: str, user_id: str | None = None) -> PusherSocket:
    """A socket subscribed to `channel` (as presence member `user_id` on a presence channel)."""
    client = await PusherSocket.open(server.ws_url())
    channel_data = f'{{"user_id":"{user_id}","user_info":{{"name":"{user_id}"}}}}' if user_id else None
    reply = await client.subscribe(channel, signing.channel_auth(client.socket_id, channel, channel_data), channel_data)
    assert reply["event"] == "pusher_internal:subscription_succeeded", reply
    return client


async def eventually(function, expected, *args, timeout: float = 5.0, **kwargs):
    """The library's answer once it equals `expected` (unsubscribes land asynchronously)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = await call(function, *args, **kwargs)
        if answer == expected or time.monotonic() > deadline:
            assert answer == expected
            return
        await asyncio.sleep(0.1)


def test_the_library_reads_channels_counts_and_members_of_one_server(protocol_server):
    api = library(protocol_server)
    tag = uuid.uuid4().hex[:8]
    room, agent, news = f"presence-owner.{tag}", f"private-agent.{tag}", f"news-{tag}"

    async def scenario():
        kiosk_tab_one = await joined(protocol_server, room, "kiosk.1")
        kiosk_tab_two = await joined(protocol_server, room, "kiosk.1")
        panel_user = await joined(protocol_server, room, "user.2")
        agent_socket = await joined(protocol_server, agent)
        await joined(protocol_server, news)

        everything = await call(api.channels_info)
        assert {room, agent, news} <= set(everything["channels"])
        assert everything["channels"][room] == {}  # no info asked for
        presence = await call(api.channels_info, prefix_filter=f"presence-owner.{tag}", attributes=["user_count"])
        assert presence == {"channels": {room: {"user_count": 2}}}
        assert await call(api.channels_info, prefix_filter=f"private-agent.{tag}") == {"channels": {agent: {}}}

        info = await call(api.channel_info, room, ["user_count", "subscription_count"])
        assert info == {"occupied": True, "user_count": 2, "subscription_count": 3}
        assert await call(api.channel_info, agent, ["subscription_count"]) == {
            "occupied": True,
            "subscription_count": 1,
        }
        assert await call(api.channel_info, f"private-agent.{tag}-nobody") == {"occupied": False}
        assert await call(api.users_info, room) == {"users": [{"id": "kiosk.1"}, {"id": "user.2"}]}

        await kiosk_tab_one.close()  # the user stays: its other tab is still there
        await eventually(
            api.channel_info,
            {"occupied": True, "user_count": 2, "subscription_count": 2},
            room,
            ["user_count", "subscription_count"],
        )
        await agent_socket.send("pusher:unsubscribe", {"channel": agent})
        await eventually(api.channel_info, {"occupied": False}, agent)
        await kiosk_tab_two.close()
        await eventually(api.users_info, {"users": [{"id": "user.2"}]}, room)
        await panel_user.close()
        await eventually(api.channels_info, {"channels": {}}, prefix_filter=f"presence-owner.{tag}")

    run(scenario())


def test_the_library_gets_pushers_refusals(protocol_server):
    api = library(protocol_server)
    with pytest.raises(PusherBadRequest):
        api.users_info("private-agent.1")
    with pytest.raises(PusherBadRequest):
        api.channels_info(attributes=["user_count"])  # not limited to presence channels
    with pytest.raises(PusherBadRequest):
        api.channel_info("news", ["user_count"])
    with pytest.raises(PusherBadAuth):
        library(protocol_server, secret="not-the-secret").channels_info()
    with pytest.raises(PusherBadStatus, match="404"):
        library(protocol_server, app_id="999999").channel_info("news")


def test_terminate_closes_the_users_connections_and_the_others_see_it_leave(protocol_server):
    api = library(protocol_server)
    room = f"presence-owner.{uuid.uuid4().hex[:8]}"

    async def scenario():
        kiosk_tabs = [await joined(protocol_server, room, "kiosk.7") for _ in range(2)]
        panel_user = await joined(protocol_server, room, "user.8")
        await call(api.terminate_user_connections, "kiosk.7")
        for tab in kiosk_tabs:
            error = await error_then_close(tab, protocol.UNAUTHORIZED)
            assert error["data"]["code"] == protocol.UNAUTHORIZED
        left = await panel_user.next(protocol.MEMBER_REMOVED)
        assert left["data"] == {"user_id": "kiosk.7"}
        assert await call(api.users_info, room) == {"users": [{"id": "user.8"}]}
        await call(api.terminate_user_connections, "kiosk.7")  # nobody left: still {}
        await nothing_more(protocol_server, {panel_user: room})

    run(scenario())


@needs_redis
def test_answers_and_terminate_are_the_same_across_two_web_processes(server_pair):
    first, second = server_pair
    tag = uuid.uuid4().hex[:8]  # the servers outlive the test: its own room, channel and users
    room, agent_channel, kiosk_id, user_id = (
        f"presence-owner.{tag}",
        f"private-agent.{tag}",
        f"kiosk.{tag}",
        f"user.{tag}",
    )

    async def scenario():
        kiosk = await joined(first, room, kiosk_id)
        panel_user = await joined(second, room, user_id)
        await joined(first, agent_channel)
        await joined(second, agent_channel)
        for server in (first, second):
            api = library(server)
            info = await call(api.channel_info, room, ["user_count", "subscription_count"])
            assert info == {"occupied": True, "user_count": 2, "subscription_count": 2}
            assert await call(api.channel_info, agent_channel, ["subscription_count"]) == {
                "occupied": True,
                "subscription_count": 2,
            }
            assert await call(api.users_info, room) == {"users": [{"id": kiosk_id}, {"id": user_id}]}
            # The other tests' presence channels on these servers are theirs: listed by this room's name.
            listed = await call(api.channels_info, prefix_filter=room, attributes=["user_count"])
            assert listed == {"channels": {room: {"user_count": 2}}}

        await call(library(second).terminate_user_connections, kiosk_id)  # asked of the other process
        await error_then_close(kiosk, protocol.UNAUTHORIZED)
        assert (await panel_user.next(protocol.MEMBER_REMOVED))["data"] == {"user_id": kiosk_id}
        assert await call(library(first).users_info, room) == {"users": [{"id": user_id}]}

    run(scenario())


@needs_redis
def test_members_of_a_sigkilled_process_are_gone_within_the_stated_time(two_servers):
    lease = 2.0  # production: REALTIME_PROCESS_LEASE_SECONDS 15, so within 20 s
    doomed, survivor = (two_servers(REALTIME_PROCESS_LEASE_SECONDS=str(lease)) for _ in range(2))
    room = "presence-owner.32"
    api = library(survivor)

    async def scenario():
        await joined(doomed, room, "kiosk.9")
        await joined(doomed, "news")
        panel_user = await joined(survivor, room, "user.1")
        assert await call(api.users_info, room) == {"users": [{"id": "kiosk.9"}, {"id": "user.1"}]}
        doomed.process.send_signal(signal.SIGKILL)  # no goodbye: no unsubscribe, no member_removed
        killed_at = time.monotonic()
        left = await panel_user.next(protocol.MEMBER_REMOVED, timeout=lease * 4 / 3 + 10)
        elapsed = time.monotonic() - killed_at
        assert left["data"] == {"user_id": "kiosk.9"}
        assert elapsed <= lease * 4 / 3 + 3, f"member_removed {elapsed:.1f} s after the kill"  # 3 s: a loaded machine
        assert await call(api.users_info, room) == {"users": [{"id": "user.1"}]}
        assert await call(api.channel_info, room, ["subscription_count"]) == {"occupied": True, "subscription_count": 1}
        assert await call(api.channel_info, "news") == {"occupied": False}

    run(scenario())
    wait_until(lambda: doomed.process.poll() is not None, 5, "the killed process")
