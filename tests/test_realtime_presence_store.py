"""The presence member list (apps/realtime/presence.py): one member per user however many
connections it has, and, in Redis, entries of a process that died unannounced expire and are
reported as gone. Runs against Redis when REDIS_URL is set, else the in-memory store."""

import asyncio
import uuid

import pytest
from django.conf import settings

from apps.realtime import presence


def store():
    if settings.REDIS_URL:
        return presence.RedisPresence(settings.REDIS_URL, f"{settings.CACHE_KEY_PREFIX}:rt:presence")
    return presence.MemoryPresence()


def run(coroutine):
    return asyncio.run(coroutine)


@pytest.fixture
def channel():
    return f"presence-owner.test-{uuid.uuid4().hex}"


def test_a_user_is_added_once_and_removed_with_its_last_connection(channel):
    async def scenario():
        members = store()
        first = await members.join(channel, "1.1", "kiosk.1", {"name": "A"})
        assert (first.added, first.members) == (True, {"kiosk.1": {"name": "A"}})
        again = await members.join(channel, "1.2", "kiosk.1", {"name": "A"})
        assert again.added is False
        other = await members.join(channel, "2.1", "user.2", {"name": "B"})
        assert other.added is True and set(other.members) == {"kiosk.1", "user.2"}
        assert (await members.leave(channel, "1.1")).gone == []
        assert (await members.leave(channel, "1.2")).gone == ["kiosk.1"]
        assert (await members.leave(channel, "1.2")).gone == []  # twice is harmless
        assert (await members.join(channel, "3.1", "user.3", {})).members.keys() == {"user.2", "user.3"}

    run(scenario())


@pytest.mark.skipif(not settings.REDIS_URL, reason="only the Redis store outlives a process")
def test_entries_of_a_dead_process_expire_and_are_reported_gone(channel, monkeypatch):
    async def scenario():
        members = store()
        monkeypatch.setattr(presence, "entry_ttl_seconds", lambda: -1)  # written already expired
        await members.join(channel, "9.9", "kiosk.9", {})  # its process dies: no leave
        monkeypatch.setattr(presence, "entry_ttl_seconds", lambda: 300)
        change = await members.join(channel, "1.1", "user.1", {})
        assert change.gone == ["kiosk.9"]
        assert set(change.members) == {"user.1"}

    run(scenario())


@pytest.mark.skipif(not settings.REDIS_URL, reason="only the Redis store outlives a process")
def test_touch_keeps_a_live_connection_from_expiring(channel, monkeypatch):
    async def scenario():
        members = store()
        monkeypatch.setattr(presence, "entry_ttl_seconds", lambda: 0.5)
        await members.join(channel, "9.9", "kiosk.9", {})
        monkeypatch.setattr(presence, "entry_ttl_seconds", lambda: 300)
        await members.touch(channel, "9.9")  # a sign of life before the deadline
        await asyncio.sleep(0.7)
        change = await members.join(channel, "1.1", "user.1", {})
        assert change.gone == [] and set(change.members) == {"kiosk.9", "user.1"}

    run(scenario())
