"""The shared channel state (apps/realtime/presence.py, presence_redis.py): one member per user
however many connections it has, subscription counts; in Redis, two stores stand for two web
processes, and the entries of a process whose lease ran out are reaped and reported gone.
Runs against Redis when REDIS_URL is set, else the in-memory store."""

import asyncio
import contextlib
import uuid

import pytest
from channels import DEFAULT_CHANNEL_LAYER
from channels.layers import channel_layers
from django.conf import settings

from apps.realtime import presence, protocol
from apps.realtime.fanout import FANOUT_GROUP

needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="only the Redis store outlives a process")


_opened: list = []  # the stores a scenario made, closed when it ends


def store(prefix: str):
    if settings.REDIS_URL:
        from apps.realtime.presence_redis import RedisPresence

        made = RedisPresence(settings.REDIS_URL, prefix)
    else:
        made = presence.MemoryPresence()
    _opened.append(made)
    return made


def run(coroutine):
    """The scenario with a deadline, then its stores closed: no lease task outlives its loop."""

    async def closing():
        try:
            async with asyncio.timeout(30):
                await coroutine
        finally:
            async with asyncio.timeout(15):  # a store that cannot close fails its test, not the run
                while _opened:
                    await _opened.pop().close()

    asyncio.run(closing())


@pytest.fixture(autouse=True)
def members_go_at_once(settings):
    """These tests read the store right after a leave: no grace (REALTIME_PRESENCE_GRACE_SECONDS;
    the grace itself is tested live in test_realtime_quiet_members.py)."""
    settings.REALTIME_PRESENCE_GRACE_SECONDS = 0


@pytest.fixture
def prefix():
    """Each test its own key space: its stores' leases must not meet another test's."""
    return f"{settings.CACHE_KEY_PREFIX}:rt-test-{uuid.uuid4().hex}"


CHANNEL = "presence-owner.test"
# Short leases, yet long enough that a busy machine (two test workers) does not stall a living
# process's heartbeat past one; PAST_LEASE waits until a dead process's lease has surely run out.
LEASE = 1.2
PAST_LEASE = LEASE + 0.3


def test_a_user_is_added_once_and_removed_with_its_last_connection(prefix):
    async def scenario():
        members = store(prefix)
        first = await members.join(CHANNEL, "1.1", "kiosk.1", {"name": "A"})
        assert (first.added, first.members) == (True, {"kiosk.1": {"name": "A"}})
        again = await members.join(CHANNEL, "1.2", "kiosk.1", {"name": "A"})
        assert again.added is False
        other = await members.join(CHANNEL, "2.1", "user.2", {"name": "B"})
        assert other.added is True and set(other.members) == {"kiosk.1", "user.2"}
        assert await members.subscription_counts("presence-") == {CHANNEL: 3}
        assert (await members.user_counts([CHANNEL]))[CHANNEL] == 2
        assert (await members.leave(CHANNEL, "1.1")).gone == []
        assert (await members.leave(CHANNEL, "1.2")).gone == ["kiosk.1"]
        assert (await members.leave(CHANNEL, "1.2")).gone == []  # twice is harmless
        assert (await members.join(CHANNEL, "3.1", "user.3", {})).members.keys() == {"user.2", "user.3"}
        assert sorted(await members.user_ids(CHANNEL)) == ["user.2", "user.3"]
        assert await members.subscription_counts("presence-") == {CHANNEL: 2}

    run(scenario())


def test_subscription_counts_cover_every_channel_kind_and_forget_empty_channels(prefix):
    async def scenario():
        counts = store(prefix)
        for channel in ("news", "news", "private-agent.1"):
            await counts.subscribe(channel)
        assert await counts.subscription_counts() == {"news": 2, "private-agent.1": 1}
        assert await counts.subscription_counts("private-") == {"private-agent.1": 1}
        assert (await counts.subscription_count("news"), await counts.subscription_count("new")) == (2, 0)
        await counts.unsubscribe("private-agent.1")
        await counts.unsubscribe("news")
        assert await counts.subscription_counts() == {"news": 1}

    run(scenario())


@needs_redis
def test_two_processes_see_the_same_counts_and_members(prefix):
    async def scenario():
        one, two = store(prefix), store(prefix)
        await one.join(CHANNEL, "1.1", "kiosk.1", {})
        await two.join(CHANNEL, "2.1", "kiosk.1", {})
        await two.subscribe("news")
        for reader in (one, two):
            assert await reader.subscription_counts() == {CHANNEL: 2, "news": 1}
            assert await reader.subscription_count(CHANNEL) == 2
            assert await reader.user_ids(CHANNEL) == ["kiosk.1"]
        assert (await one.leave(CHANNEL, "1.1")).gone == []  # the user is still on the other process

    run(scenario())


@contextlib.asynccontextmanager
async def fanout_listener():
    """An inbox in the fan-out group, on a layer of its own: the process-wide layer keeps receive
    state from the event loops of earlier tests."""
    layer = channel_layers.make_backend(DEFAULT_CHANNEL_LAYER)
    inbox = await layer.new_channel()
    await layer.group_add(FANOUT_GROUP, inbox)
    try:
        yield layer, inbox
    finally:
        await layer.group_discard(FANOUT_GROUP, inbox)
        await layer.close_pools()


@needs_redis
def test_a_dead_process_is_reaped_after_its_lease_and_its_members_reported_gone(prefix, settings):
    settings.REALTIME_PROCESS_LEASE_SECONDS = LEASE

    async def scenario():
        async with fanout_listener() as (layer, inbox):
            dead, alive = store(prefix), store(prefix)
            await dead.join(CHANNEL, "9.9", "kiosk.9", {})
            await dead.subscribe("news")
            await alive.join(CHANNEL, "1.1", "user.1", {})
            dead._heartbeat.cancel()  # SIGKILL: no more heartbeats, and no goodbye
            assert set(await alive.user_ids(CHANNEL)) == {"kiosk.9", "user.1"}  # not before the lease runs out
            await asyncio.sleep(PAST_LEASE)
            assert await alive.user_ids(CHANNEL) == ["user.1"]
            assert await alive.subscription_counts() == {CHANNEL: 1}
            assert await alive.subscription_count("news") == 0
            async with asyncio.timeout(5):
                message = await layer.receive(inbox)
            assert (message["channels"], message["event"], message["data"]) == (
                [CHANNEL],
                protocol.MEMBER_REMOVED,
                {"user_id": "kiosk.9"},
            )

    run(scenario())


@needs_redis
def test_a_live_process_keeps_its_lease(prefix, settings):
    settings.REALTIME_PROCESS_LEASE_SECONDS = LEASE  # renewed every 0.4 s

    async def scenario():
        living, reader = store(prefix), store(prefix)
        await living.join(CHANNEL, "9.9", "kiosk.9", {})
        await asyncio.sleep(2 * LEASE)
        assert await reader.user_ids(CHANNEL) == ["kiosk.9"]

    run(scenario())


@needs_redis
def test_a_busy_process_never_reaps_itself(prefix, settings):
    """Its loop stalled past its lease (no heartbeat ran), then it reads: it renews before it
    sweeps, so its members stay, and nobody hears them leave and come back."""
    settings.REALTIME_PROCESS_LEASE_SECONDS = LEASE

    async def scenario():
        async with fanout_listener() as (layer, inbox):
            busy = store(prefix)
            await busy.join(CHANNEL, "9.9", "kiosk.9", {})
            busy._heartbeat.cancel()  # the stall: no heartbeat while it lasts
            await asyncio.sleep(PAST_LEASE)
            assert await busy.user_ids(CHANNEL) == ["kiosk.9"]
            assert await busy.subscription_counts() == {CHANNEL: 1}
            with pytest.raises(TimeoutError):  # no member_removed, no member_added
                async with asyncio.timeout(1):
                    await layer.receive(inbox)

    run(scenario())


@needs_redis
def test_a_process_whose_lease_was_reaped_while_it_lived_writes_its_entries_again(prefix, settings):
    settings.REALTIME_PROCESS_LEASE_SECONDS = LEASE

    async def scenario():
        stalled, other = store(prefix), store(prefix)
        await stalled.join(CHANNEL, "9.9", "kiosk.9", {"name": "K"})
        await stalled.subscribe("news")
        stalled._heartbeat.cancel()  # its loop stalls longer than the lease ...
        await asyncio.sleep(PAST_LEASE)
        assert await other.user_ids(CHANNEL) == []
        stalled._heartbeat = None
        await stalled.subscribe("news")  # ... then it wakes up: the heartbeat runs again
        async with asyncio.timeout(5):  # its next heartbeat, however busy the machine
            while await other.user_ids(CHANNEL) != ["kiosk.9"]:
                await asyncio.sleep(0.1)
        assert await other.subscription_counts() == {CHANNEL: 1, "news": 2}

    run(scenario())


@needs_redis
def test_processes_sweeping_at_once_reap_a_dead_one_once(prefix, settings):
    settings.REALTIME_PROCESS_LEASE_SECONDS = LEASE

    async def scenario():
        async with fanout_listener() as (layer, inbox):
            dead, sweepers = store(prefix), [store(prefix) for _ in range(3)]
            await dead.join(CHANNEL, "9.9", "kiosk.9", {})
            dead._heartbeat.cancel()
            await asyncio.sleep(PAST_LEASE)
            await asyncio.gather(*(sweeper.sweep() for sweeper in sweepers))
            async with asyncio.timeout(5):
                first = await layer.receive(inbox)
            assert first["data"] == {"user_id": "kiosk.9"}
            with pytest.raises(TimeoutError):  # one member_removed, not one per sweeper
                async with asyncio.timeout(1):
                    await layer.receive(inbox)

    run(scenario())
