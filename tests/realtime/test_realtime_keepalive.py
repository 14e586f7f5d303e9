"""The activity timeout runs on one timer wheel per process (apps/realtime/keepalive.py): real
clients against a real daphne prove it still pings silent connections, closes them with 4201
when no pong comes, leaves talking ones alone and answers pings; the wheel itself is checked for
never looking early and for stopping when nothing is on it."""

import asyncio
import time

import pytest

from apps.realtime import protocol
from apps.realtime.keepalive import TimerWheel
from tests.support.processes import start_daphne, stop_daphne
from tests.support.realtime import PusherSocket, closed_with, run, until

ACTIVITY_TIMEOUT, PONG_TIMEOUT = 1, 1  # whole seconds: Pusher's activity_timeout is an integer


@pytest.fixture(scope="module")
def short_timeout_server(tmp_path_factory):
    """Its own: the shared server keeps the default timeouts (pinging each quiet socket after 1 s
    would load every other test's)."""
    server = start_daphne(
        tmp_path_factory.mktemp("rt-keepalive"),
        REALTIME_ACTIVITY_TIMEOUT=str(ACTIVITY_TIMEOUT),
        REALTIME_PONG_TIMEOUT=str(PONG_TIMEOUT),
    )
    yield server
    stop_daphne(server)


@pytest.mark.live
def test_every_silent_connection_is_pinged_after_the_activity_timeout_and_closed_without_a_pong(
    short_timeout_server,
):
    async def silent_one() -> tuple[float, float, int]:
        opened = time.monotonic()
        client = await PusherSocket.open(short_timeout_server.ws_url())
        await client.next("pusher:ping", timeout=ACTIVITY_TIMEOUT + 3)
        pinged = time.monotonic()
        error = await client.next("pusher:error", timeout=PONG_TIMEOUT + 3)
        assert error["data"]["code"] == protocol.PONG_NOT_RECEIVED
        code = await closed_with(client.ws)
        return pinged - opened, time.monotonic() - pinged, code

    async def scenario():
        return await asyncio.gather(*(silent_one() for _ in range(20)))

    for to_ping, to_close, code in run(scenario()):
        assert code == protocol.PONG_NOT_RECEIVED
        assert ACTIVITY_TIMEOUT <= to_ping + 0.05 < ACTIVITY_TIMEOUT + 2.5  # never early; at most a slot late
        assert PONG_TIMEOUT <= to_close + 0.05 < PONG_TIMEOUT + 2.5


@pytest.mark.live
def test_a_silent_client_is_closed_with_4201_while_an_answering_one_stays(short_timeout_server):
    async def scenario():
        answering = await PusherSocket.open(short_timeout_server.ws_url())
        silent = await PusherSocket.open(short_timeout_server.ws_url())
        assert (await silent.next("pusher:ping", timeout=6))["event"] == "pusher:ping"
        for _ in range(3):
            await answering.next("pusher:ping", timeout=6)
            await answering.send("pusher:pong")
        error = await silent.next("pusher:error", timeout=6)
        assert error["data"]["code"] == protocol.PONG_NOT_RECEIVED
        assert await closed_with(silent.ws) == protocol.PONG_NOT_RECEIVED
        await answering.send("pusher:ping")
        assert (await answering.next("pusher:pong"))["event"] == "pusher:pong"  # still open

    run(scenario())


@pytest.mark.live
def test_a_talking_client_is_never_pinged_and_its_pings_are_answered(short_timeout_server):
    async def scenario():
        client = await PusherSocket.open(short_timeout_server.ws_url())
        for _ in range(16):  # traffic every quarter of the timeout, for four activity timeouts
            await client.send("pusher:ping")
            assert (await client.next(timeout=2))["event"] == "pusher:pong"  # never a ping in between
            await asyncio.sleep(ACTIVITY_TIMEOUT / 4)
        assert (await client.next("pusher:ping", timeout=ACTIVITY_TIMEOUT + 3))["event"] == "pusher:ping"
        await client.close()

    run(scenario())


@pytest.mark.live
def test_a_pong_keeps_the_connection_and_it_is_pinged_again_after_the_next_silence(short_timeout_server):
    async def scenario():
        client = await PusherSocket.open(short_timeout_server.ws_url())
        for _ in range(3):
            await client.next("pusher:ping", timeout=ACTIVITY_TIMEOUT + 3)
            answered = time.monotonic()
            await client.send("pusher:pong")
        await client.next("pusher:ping", timeout=ACTIVITY_TIMEOUT + 3)
        assert time.monotonic() - answered >= ACTIVITY_TIMEOUT - 0.05  # the pong reset the clock
        await client.send("pusher:ping")
        assert (await client.next("pusher:pong"))["event"] == "pusher:pong"  # still open
        await client.close()

    run(scenario())


class Recorder:
    """A connection as the wheel sees it: asks to be looked at again `every` seconds, `times` times."""

    def __init__(self, every: float, times: int):
        self.every, self.times = every, times
        self.checked_at: list[float] = []
        self.due = 0.0

    async def check_activity(self, now: float) -> float | None:
        assert now >= self.due, "looked at before its time"
        self.checked_at.append(now)
        if len(self.checked_at) >= self.times:
            return None
        self.due = now + self.every
        return self.due


def test_the_wheel_never_looks_early_and_stops_turning_when_nothing_is_on_it():
    async def scenario():
        wheel = TimerWheel(resolution=0.05)
        recorders = [Recorder(every=0.1 + 0.03 * index, times=3) for index in range(10)]
        start = time.monotonic()
        for recorder in recorders:
            recorder.due = start + recorder.every
            wheel.schedule(recorder, recorder.due)
        cancelled = Recorder(every=0.1, times=3)
        wheel.schedule(cancelled, start + 0.1)
        wheel.cancel(cancelled)
        await until(lambda: len(wheel) == 0 and wheel._task.done(), 5, "the wheel empty and stopped")
        assert len(wheel) == 0
        assert wheel._task.done()  # no wake-ups while no connection is on the wheel
        for recorder in recorders:
            assert len(recorder.checked_at) == 3
            assert recorder.checked_at[-1] - start < 3 * recorder.every + 3 * 0.05 + 0.3  # at most a slot late
        assert cancelled.checked_at == []
        again = Recorder(every=0.1, times=1)
        wheel.schedule(again, time.monotonic() + 0.1)  # the wheel starts turning again
        await until(lambda: len(wheel) == 0 and wheel._task.done(), 5, "the wheel empty and stopped again")
        assert len(again.checked_at) == 1

    asyncio.run(scenario())


class Peer:
    """One of several connections in the same slot: the first of them to be checked closes all
    the others but one (as disconnects arriving during the wheel's awaits would) and moves that
    one to a later slot, whichever order the slot is turned in."""

    def __init__(self, wheel: TimerWheel, peers: list):
        self.wheel, self.peers = wheel, peers
        self.checked_at: list[float] = []
        self.role = ""

    async def check_activity(self, now: float) -> float | None:
        self.checked_at.append(now)
        if not any(peer.role for peer in self.peers):
            self.role = "first"
            others = [peer for peer in self.peers if peer is not self]
            others[0].role, others[0].due = "moved", now + 0.3
            self.wheel.schedule(others[0], others[0].due)
            for peer in others[1:]:
                peer.role = "closed"
                self.wheel.cancel(peer)
        await asyncio.sleep(0)  # the send
        return None


def test_a_connection_closed_or_moved_while_its_slot_turns_is_not_checked_then():
    async def scenario():
        wheel = TimerWheel(resolution=0.05)
        peers: list[Peer] = []
        peers.extend(Peer(wheel, peers) for _ in range(6))
        due = time.monotonic() + 0.1
        for peer in peers:
            wheel.schedule(peer, due)
        await until(lambda: len(wheel) == 0 and wheel._task.done(), 5, "the wheel empty and stopped")
        roles = sorted(peer.role for peer in peers)
        assert roles == ["closed"] * 4 + ["first", "moved"]
        for peer in peers:
            if peer.role == "closed":
                assert peer.checked_at == []  # cancelled before its turn: never looked at
            elif peer.role == "moved":
                assert len(peer.checked_at) == 1 and peer.checked_at[0] >= peer.due  # only at its new time
        assert len(wheel) == 0 and wheel._task.done()  # the wheel survived its slot and stopped

    asyncio.run(scenario())
