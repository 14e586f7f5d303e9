"""Broadcasts sent where no server loop runs (a Celery worker's child) all go out on one event
loop of the process, so channels-redis keeps one Redis connection for them (issue 40: a fresh
loop per send, async_to_sync's, opened a connection per broadcast). They still arrive."""

import asyncio
import threading

import pytest
from channels.layers import get_channel_layer

from apps.realtime import broadcast


@pytest.mark.django_db(transaction=True)
def test_sends_from_threads_without_a_loop_share_one_loop_and_arrive(listener, monkeypatch):
    layer = get_channel_layer()
    loops: list[asyncio.AbstractEventLoop] = []

    class Recording:
        async def group_send(self, group, message):
            loops.append(asyncio.get_running_loop())
            await layer.group_send(group, message)

    monkeypatch.setattr("apps.realtime.broadcast.get_channel_layer", lambda: Recording())
    broadcast.broadcast(["private-agent.1"], "SessionIncoming", {"n": 1})
    sender = threading.Thread(target=broadcast.broadcast, args=(["private-agent.1"], "SessionIncoming", {"n": 2}))
    sender.start()
    sender.join(10)
    heard = [listener(), listener()]
    assert sorted(message["data"]["n"] for message in heard) == [1, 2]
    assert len(loops) == 2 and loops[0] is loops[1] is broadcast.sender_loop()
