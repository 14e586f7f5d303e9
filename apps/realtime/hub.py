"""This web process's half of the fan-out.

Every web process that holds WebSocket connections has one channel-layer inbox in the group
`pusher.fanout`. A broadcast is ONE `group_send` to that group carrying the event and the list of
Pusher channels; each process then writes the frame to its own connections on those channels,
found in a plain dict. So a SessionIncoming to 500 agents costs one Redis message per process,
not 500 (one Channels group per Pusher channel would), and Pusher channel names (`=@,;`, up to
200 characters) never have to become Channels group names.
"""

import asyncio
import logging
import time

from channels.layers import get_channel_layer

from apps.realtime import protocol

MEMBERSHIP_EVENTS = (protocol.MEMBER_ADDED, protocol.MEMBER_REMOVED)

logger = logging.getLogger(__name__)

FANOUT_GROUP = "pusher.fanout"
MESSAGE_TYPE = "pusher.fanout"
GROUP_RENEW_SECONDS = 60  # a lost membership (Redis restarted) heals within a minute
RENEW_ON_CONNECT_SECONDS = 5


def fanout_message(channels: list[str], event: str, data, *, skip: str | None = None, extra=None) -> dict:
    """What travels through the layer: the event once, and where it goes. `skip` is the socket id
    that caused it (it does not get its own event back)."""
    return {"type": MESSAGE_TYPE, "channels": channels, "event": event, "data": data, "skip": skip, "extra": extra}


def terminate_message(user_id: str) -> dict:
    """The HTTP API's terminate_connections, to every process: close that user's connections."""
    return {"type": MESSAGE_TYPE, "terminate_user": user_id}


class Hub:
    def __init__(self):
        self.subscribers: dict[str, set] = {}  # Pusher channel -> this process's consumers on it
        self._started: asyncio.Task | None = None
        self._layer = None
        self._inbox = ""
        self._renewed_at = 0.0
        self._tasks: list[asyncio.Task] = []  # the receive loop and the membership renewal

    def join(self, channel: str, consumer) -> None:
        self.subscribers.setdefault(channel, set()).add(consumer)

    def leave(self, channel: str, consumer) -> None:
        consumers = self.subscribers.get(channel)
        if consumers is not None:
            consumers.discard(consumer)
            if not consumers:
                del self.subscribers[channel]

    async def start(self) -> None:
        """Join the fan-out group: on the first connection of the process, and again on a new
        connection when the membership was last renewed a while ago (Redis may have restarted
        or been flushed; then this process would hear nothing until the next renewal)."""
        failed = self._started is not None and self._started.done() and self._started.exception() is not None
        if self._started is None or failed:
            self._started = asyncio.ensure_future(self._join_and_listen())
        try:
            await asyncio.shield(self._started)
            if time.monotonic() - self._renewed_at > RENEW_ON_CONNECT_SECONDS:
                await self._renew()
        except Exception:
            logger.exception("could not join the real-time fan-out group; broadcasts will not reach this process")

    async def _join_and_listen(self) -> None:
        self._layer = get_channel_layer()
        self._inbox = await self._layer.new_channel("pusher.process.")
        await self._renew()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen(self._layer, self._inbox)),
            loop.create_task(self._keep_membership()),
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
        await self._layer.group_add(FANOUT_GROUP, self._inbox)
        self._renewed_at = time.monotonic()

    async def _keep_membership(self) -> None:
        while True:
            await asyncio.sleep(GROUP_RENEW_SECONDS)
            try:
                await self._renew()
            except Exception:
                logger.exception("could not renew the fan-out group membership")

    async def _listen(self, layer, inbox: str) -> None:
        while True:
            try:
                message = await layer.receive(inbox)
                await self.deliver(message)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("real-time fan-out receive failed; retrying")
                await asyncio.sleep(1)

    async def deliver(self, message: dict) -> None:
        if "terminate_user" in message:
            await self._terminate(message["terminate_user"])
            return
        event, data, skip, extra = message["event"], message["data"], message.get("skip"), message.get("extra")
        frames = protocol.FrameMaker(event, data, extra)  # the data is JSON-encoded once for all channels
        for channel in message["channels"]:
            consumers = self.subscribers.get(channel)
            if not consumers:
                continue
            reply = {"type": "websocket.send", "text": frames.for_channel(channel)}
            for consumer in list(consumers):
                if consumer.socket_id == skip:
                    continue
                if event in MEMBERSHIP_EVENTS and not consumer.membership_news(channel, event, data["user_id"]):
                    continue
                await consumer.base_send(reply)

    async def _terminate(self, user_id: str) -> None:
        connections = {consumer for consumers in self.subscribers.values() for consumer in consumers}
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
