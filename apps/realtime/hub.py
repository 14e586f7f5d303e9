"""This web process's half of the fan-out.

Every web process that holds WebSocket connections has one channel-layer inbox in the group
`pusher.fanout`. A broadcast is ONE `group_send` to that group carrying the event and the list of
Pusher channels; each process then writes the frame to its own connections on those channels,
found in a plain dict. So a SessionIncoming to 500 agents costs one Redis message per process,
not 500 (one Channels group per Pusher channel would), and Pusher channel names (`=@,;`, up to
164 characters) never have to become Channels group names.
"""

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from asgiref.typing import WebSocketSendEvent
from django.conf import settings

from apps.realtime import membership, protocol
from apps.realtime.fanout import FANOUT_GROUP, ChannelLayer, channel_layer
from apps.realtime.presence import presence_store
from apps.realtime.protocol import FanoutMessage

MEMBERSHIP_EVENTS = (protocol.MEMBER_ADDED, protocol.MEMBER_REMOVED)

logger = logging.getLogger(__name__)

RECEIVE_RETRY_SECONDS = 0.5  # after a failed receive (Redis unreachable)


class Subscriber(Protocol):
    """A connection as the hub sees it (consumer.PusherConsumer)."""

    socket_id: str

    async def base_send(self, message: WebSocketSendEvent) -> None: ...
    async def channel_send(self, channel: str, message: WebSocketSendEvent) -> None: ...
    async def drop_subscription(self, channel: str) -> None: ...
    async def terminate(self) -> None: ...
    def membership_news(self, channel: str, event: str, user_id: protocol.MemberId) -> bool: ...
    def holds_user(self, user_id: str) -> bool: ...


class Hub:
    """Membership of the fan-out group is lost with Redis (a restart, a failover, a flush) and
    nothing tells us so: the group key is simply gone. So the hub joins again every
    REALTIME_FANOUT_CHECK_SECONDS (one ZADD and one EXPIRE, idempotent), which also proves the
    layer answers. While that or the receive keeps failing, the process cannot deliver: after
    REALTIME_UNDELIVERABLE_SECONDS it says so, closing its connections with 4200 (pusher-js
    reconnects at once, to another process behind the balancer) and refusing new ones with 4100
    (pusher-js retries after a second and meanwhile reports "connecting", so the apps poll), until
    a check succeeds again."""

    def __init__(self) -> None:
        self.subscribers: dict[str, set[Subscriber]] = {}  # Pusher channel -> this process's consumers on it
        self.quiet: dict[str, set[Subscriber]] = {}  # presence channel -> its quiet members here (join says why)
        self._started: asyncio.Task[None] | None = None
        self._layer: ChannelLayer | None = None
        self._inbox = ""
        self._tasks: list[asyncio.Task[None]] = []  # the receive loop and the membership watch
        self._failing_since: float | None = None  # the first failed check or receive of an outage
        self._receive_failed_at = float("-inf")
        self.delivering = True  # False once the outage has lasted REALTIME_UNDELIVERABLE_SECONDS
        # The consumer module closes its connections.
        self.on_undeliverable: Callable[[], Awaitable[None]] | None = None
        self.count_connections: Callable[[], int] = lambda: 0  # this process's open connections (set by the consumer)
        self.connections_elsewhere = 0  # the other live processes' open connections, at the last check

    def join(self, channel: str, consumer: Subscriber, *, quiet: bool = False) -> None:
        """A quiet member (a kiosk on its owner's presence channel) hears nothing on the channel, so
        it is kept apart: a broadcast or a member_added there walks only the listening connections
        (the panel's), not every kiosk of the owner. It is still found by terminate_connections."""
        (self.quiet if quiet else self.subscribers).setdefault(channel, set()).add(consumer)

    def leave(self, channel: str, consumer: Subscriber) -> None:
        for registry in (self.subscribers, self.quiet):
            consumers = registry.get(channel)
            if consumers is not None:
                consumers.discard(consumer)
                if not consumers:
                    del registry[channel]

    async def start(self) -> None:
        """Join the fan-out group on the first connection of the process (again if that failed)."""
        failed = self._started is not None and self._started.done() and self._started.exception() is not None
        if self._started is None or failed:
            self._started = asyncio.ensure_future(self._join_and_listen())
        try:
            await asyncio.shield(self._started)
        except Exception:
            self._note_failure()
            logger.exception("could not join the real-time fan-out group; broadcasts will not reach this process")

    async def _join_and_listen(self) -> None:
        layer = channel_layer()
        if layer is None:
            raise RuntimeError("no channel layer is configured (CHANNEL_LAYERS)")
        self._layer = layer
        self._inbox = await layer.new_channel("pusher.process.")
        await self._renew()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(layer, self._inbox)),
            loop.create_task(self._watch()),
        ]

    async def stop(self) -> None:
        """Stop receiving and leave the group, so other processes stop sending to this inbox."""
        for task in self._tasks:
            task.cancel()
        if self._layer is not None and self._inbox:
            try:
                async with asyncio.timeout(2):  # not wait_for (broadcast.send says why)
                    await self._layer.group_discard(FANOUT_GROUP, self._inbox)
            except Exception:
                logger.warning("could not leave the fan-out group; its membership expires on its own")

    async def _renew(self) -> None:
        if self._layer is None:
            raise RuntimeError("the hub has not joined the fan-out group yet")
        async with asyncio.timeout(max(1.0, settings.REALTIME_FANOUT_CHECK_SECONDS)):
            await self._layer.group_add(FANOUT_GROUP, self._inbox)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(settings.REALTIME_FANOUT_CHECK_SECONDS)
            await self.check()

    async def check(self) -> None:
        """Join the group again and decide whether this process delivers."""
        try:
            await self._renew()
        except Exception as exc:
            self._note_failure()
            logger.warning("real-time fan-out check failed (%s); broadcasts may not reach this process", exc)
        else:
            receiving = time.monotonic() - self._receive_failed_at > 2 * RECEIVE_RETRY_SECONDS + 1
            if receiving:
                self._note_success()
            else:
                self._note_failure()
        try:
            self.connections_elsewhere = await presence_store().census(self.count_connections())
        except Exception as exc:  # the app-wide limit then uses the last figure
            if self._failing_since is None:  # during an outage the failed check has said it already
                logger.warning("could not count the other processes' connections (%s)", exc)
        failing_for = time.monotonic() - self._failing_since if self._failing_since is not None else 0.0
        if self.delivering and failing_for >= settings.REALTIME_UNDELIVERABLE_SECONDS:
            self.delivering = False
            logger.error("real-time fan-out unreachable; closing this process's WebSockets (4200)")
            if self.on_undeliverable is not None:
                await self.on_undeliverable()

    def _note_failure(self) -> None:
        if self._failing_since is None:
            self._failing_since = time.monotonic()

    def _note_success(self) -> None:
        if self._failing_since is not None:
            logger.info("real-time fan-out reachable again after %.1f s", time.monotonic() - self._failing_since)
        self._failing_since = None
        self.delivering = True

    async def _listen(self, layer: ChannelLayer, inbox: str) -> None:
        while True:
            try:
                message = await layer.receive(inbox)
            except asyncio.CancelledError:
                raise
            except Exception:
                self._receive_failed_at = time.monotonic()
                self._note_failure()
                logger.warning("real-time fan-out receive failed; retrying", exc_info=True)
                await asyncio.sleep(RECEIVE_RETRY_SECONDS)
                continue
            try:
                await self.deliver(message)
            except Exception:
                logger.exception("could not deliver a real-time message")

    async def deliver(self, message: FanoutMessage) -> None:
        if "terminate_user" in message:
            await self._terminate(message["terminate_user"])
            return
        channels = message.get("channels", [])
        if message.get("revoke"):
            membership.note_revoked(channels)  # a check under way there asks again
        event, data, skip, extra = message["event"], message["data"], message.get("skip"), message.get("extra")
        frames = protocol.FrameMaker(event, data, extra)  # the data is JSON-encoded once for all channels
        # A member_added/removed carries the member's user_id (presence.py, consumer.py).
        member = data.get("user_id") if isinstance(data, dict) else None
        for channel in channels:
            consumers = self.subscribers.get(channel)
            if not consumers:
                continue
            reply: WebSocketSendEvent = {"type": "websocket.send", "text": frames.for_channel(channel), "bytes": None}
            for consumer in list(consumers):
                if consumer.socket_id == skip:
                    continue
                if event in MEMBERSHIP_EVENTS and not (
                    protocol.valid_member_id(member) and consumer.membership_news(channel, event, member)
                ):
                    continue
                await consumer.channel_send(channel, reply)
                if message.get("revoke"):
                    await consumer.drop_subscription(channel)

    async def _terminate(self, user_id: str) -> None:
        registries = (*self.subscribers.values(), *self.quiet.values())
        connections = {consumer for consumers in registries for consumer in consumers}
        for consumer in connections:
            if consumer.holds_user(user_id):
                try:
                    await consumer.terminate()
                except Exception:  # one broken connection must not spare the others
                    logger.exception("could not terminate a connection of %s", user_id)


_hubs: dict[int, Hub] = {}


def hub() -> Hub:
    """This event loop's hub (daphne runs one loop per process)."""
    loop_id = id(asyncio.get_running_loop())
    if loop_id not in _hubs:
        _hubs.clear()
        _hubs[loop_id] = Hub()
    return _hubs[loop_id]


async def stop_hub() -> None:
    """At shutdown: stop this loop's hub, if a connection ever started one."""
    running = _hubs.pop(id(asyncio.get_running_loop()), None)
    if running is not None:
        await running.stop()
