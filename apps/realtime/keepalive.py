"""The activity timeout of every connection in this process, on one timer wheel.

Pusher's rule (docs/realtime.md): a connection silent for REALTIME_ACTIVITY_TIMEOUT is pinged,
and closed with 4201 when no pong comes within REALTIME_PONG_TIMEOUT. A watchdog task per
connection woke every 5 s, 2,000 wake-ups a second at 10,000 connections. Here one task per
event loop turns a wheel of slots `resolution` seconds wide and looks only at the connections
whose check falls in the slots that came due. A frame from the client only notes the time on
the connection; the wheel notices at the old deadline and puts the connection back at its new
one, so an idle connection is looked at once per activity timeout and a busy one costs nothing.
"""

import asyncio
import logging
import math
import time
from typing import Protocol

from django.conf import settings

logger = logging.getLogger(__name__)


class Watched(Protocol):
    async def check_activity(self, now: float) -> float | None:
        """Ping or close as the rule says; the next time to look (monotonic), None once closed."""


def resolution_seconds() -> float:
    """How late a ping or a close may come: a second in production (timeouts of 120 s and 30 s),
    finer for the short timeouts of the tests."""
    shortest = min(settings.REALTIME_ACTIVITY_TIMEOUT, settings.REALTIME_PONG_TIMEOUT)
    return max(0.05, min(1.0, shortest / 4))


class TimerWheel:
    def __init__(self, resolution: float):
        self.resolution = resolution
        self._slots: dict[int, set[Watched]] = {}  # slot number -> connections to look at then
        self._slot_of: dict[Watched, int] = {}
        self._next_slot = math.floor(time.monotonic() / resolution) + 1  # slots before it have turned
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._slot_of)

    def schedule(self, connection: Watched, due: float) -> None:
        """Look at `connection` at `due` (monotonic seconds), never earlier, at most one slot later."""
        self.cancel(connection)
        slot = max(math.ceil(due / self.resolution), self._next_slot)
        self._slots.setdefault(slot, set()).add(connection)
        self._slot_of[connection] = slot
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._turn())

    def cancel(self, connection: Watched) -> None:
        slot = self._slot_of.pop(connection, None)
        connections = self._slots.get(slot) if slot is not None else None  # None: its slot is being turned
        if slot is not None and connections is not None:
            connections.discard(connection)
            if not connections:
                del self._slots[slot]

    async def _turn(self) -> None:
        """Runs while any connection is on the wheel (none: no wake-ups at all)."""
        while self._slot_of:
            await asyncio.sleep(max(0.0, self._next_slot * self.resolution - time.monotonic()))
            now = time.monotonic()
            current = math.floor(now / self.resolution)
            due_slots = [slot for slot in self._slots if slot <= current]
            self._next_slot = max(self._next_slot, current + 1)
            for slot in sorted(due_slots):
                for connection in self._slots.pop(slot, ()):
                    # A check awaits its sends, so a later connection of this slot may have
                    # closed (cancelled) or been scheduled again meanwhile: then it is not due.
                    if self._slot_of.get(connection) != slot:
                        continue
                    del self._slot_of[connection]
                    await self._check(connection, now)

    async def _check(self, connection: Watched, now: float) -> None:
        try:
            next_due = await connection.check_activity(now)
        except Exception:
            logger.exception("keep-alive check failed; the connection is no longer watched")
            return
        if next_due is not None:
            self.schedule(connection, next_due)


_wheels: dict[int, TimerWheel] = {}


def timer_wheel() -> TimerWheel:
    """This event loop's wheel (daphne runs one loop per process)."""
    loop_id = id(asyncio.get_running_loop())
    if loop_id not in _wheels:
        _wheels.clear()
        _wheels[loop_id] = TimerWheel(resolution_seconds())
    return _wheels[loop_id]
