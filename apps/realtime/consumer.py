"""The Pusher-protocol WebSocket endpoint, `/app/{key}` (protocol 7), on Channels.

Subscriptions are registered with this process's hub (hub.py), which receives every broadcast
once through the channel layer and writes it to the local connections. Presence membership is
kept in presence.py so it is the same from every process.
"""

import asyncio
import json
import logging
import time
from collections import Counter
from collections.abc import Mapping
from urllib.parse import parse_qs

from asgiref.typing import (
    ASGIReceiveCallable,
    ASGIReceiveEvent,
    ASGISendCallable,
    ASGISendEvent,
    WebSocketDisconnectEvent,
    WebSocketScope,
    WebSocketSendEvent,
)
from channels.consumer import get_handler_name
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from apps.realtime import cache_channels, guards, membership, user_auth, user_channels
from apps.realtime import protocol as p
from apps.realtime.addresses import client_address
from apps.realtime.broadcast import remember_server_loop, send
from apps.realtime.fanout import fanout_message
from apps.realtime.hub import hub, stop_hub
from apps.realtime.keepalive import timer_wheel
from apps.realtime.presence import presence_store
from apps.realtime.presence_shared import Change
from apps.realtime.signing import channel_auth_valid

logger = logging.getLogger(__name__)

_open_connections: set["PusherConsumer"] = set()
_per_address: Counter[str] = Counter()  # client address -> its open connections in this process


_closed_connections = 0  # closed since the process started


def open_connection_count() -> int:
    """This process's open (accepted, not yet closed) connections: the /metrics gauge."""
    return len(_open_connections)


def closed_connection_count() -> int:
    """Connections this process has closed since it started: each leaves its server-side objects
    (daphne's, autobahn's, Twisted's) in reference cycles that only a full collection frees, so
    the web process collects after many (config/serve.py, config/memory_trim.py)."""
    return _closed_connections


class RoutedScope(WebSocketScope):
    url_route: dict[str, dict[str, str]]  # Channels' URLRouter: the route's arguments (`key`)


class PusherConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]  # channels ships no type information
    # No channel-layer inbox per connection: the process's hub receives for all of them.
    channel_layer_alias = "none: the hub receives for every connection"

    scope: RoutedScope

    async def __call__(self, scope: RoutedScope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
        # Channels' own loop (await_many_dispatch) keeps a second task per connection waiting on
        # `receive` and makes a new one per frame; with no channel-layer inbox there is only
        # one source, so one plain loop on the application's task does the same job.
        self.scope, self.base_send, self.channel_layer = scope, self._send_unless_gone(send), None
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass
        except asyncio.CancelledError:
            # daphne cancels every application when it shuts down: tell the client to reconnect
            # at once (to another process) and let the other members know this one has left.
            await self._leave_everything()
            await send({"type": "websocket.close", "code": p.RECONNECT, "reason": None})
            raise
        finally:
            # However the connection ended (an error too), it gives back its slot, subscriptions
            # and presence membership; leaving twice is harmless.
            await self._leave_everything()

    @staticmethod
    def _send_unless_gone(send: ASGISendCallable) -> ASGISendCallable:
        """daphne raises when a frame is sent to a client that has already closed (a kiosk that
        reconnects before its subscription's answer arrives). That is not an error of this
        connection: its websocket.disconnect is already queued, and the frame has no reader. Left
        to propagate it ended the application without its clean-up (a leaked slot each time) and,
        inside the hub, stopped a broadcast from reaching the remaining connections."""

        async def send_or_drop(message: ASGISendEvent) -> None:
            try:
                await send(message)
            except Exception as exc:
                logger.debug("dropped a %s to a closed connection (%s)", message.get("type"), exc)

        return send_or_drop

    async def dispatch(self, message: ASGIReceiveEvent) -> None:
        # Channels' dispatch closes stale database connections on a worker thread before every
        # message; this consumer never touches the database, so skip that thread hop.
        await getattr(self, get_handler_name(message))(message)

    async def websocket_disconnect(self, message: WebSocketDisconnectEvent) -> None:
        # Channels' own also hops to a thread to close database connections (10,000 hops when
        # a process closes its sockets at a deploy); there are no groups to leave either.
        await self.disconnect(message["code"])
        raise StopConsumer

    # --------------------------------------------------------------------------- lifecycle

    async def connect(self) -> None:
        remember_server_loop()
        if _shutting_down:  # no more listening, but a keep-alive connection may still upgrade
            await self.accept()
            await self.close(code=p.RECONNECT)
            return
        the_hub = hub()
        the_hub.on_undeliverable = close_for_outage
        the_hub.count_connections = _open_connections.__len__
        await the_hub.start()
        self.socket_id = p.new_socket_id()
        self.address = client_address(self.scope)
        self.subscriptions: dict[str, p.MemberId | None] = {}  # channel -> presence user id (or None)
        self.presence_members: dict[str, set[p.MemberId]] = {}  # presence channel -> members this client knows
        self.quiet_channels: set[str] = set()  # presence channels joined as a quiet member (hub.py)
        # A cache channel's live events, held from the hub's join until its last event (or
        # cache_miss) is sent: a replayed older event must never follow a newer live one.
        self.held_for_replay: dict[str, list[WebSocketSendEvent]] = {}
        self.user_id: str | None = None  # signed in with pusher:signin as this user (user_auth.py)
        self.last_heard = time.monotonic()
        self.ping_sent_at: float | None = None
        self.client_event_window = (0, 0)  # (second, count) for the client-event rate limit
        await self.accept()
        refusal = self._handshake_refusal()
        if refusal is not None:
            code, message = refusal
            await self.send(p.error_frame(code, message))
            await self.close(code=code)
            return
        _open_connections.add(self)
        _per_address[self.address] += 1
        established = {"socket_id": self.socket_id, "activity_timeout": settings.REALTIME_ACTIVITY_TIMEOUT}
        await self.send(p.frame("pusher:connection_established", established))
        timer_wheel().schedule(self, self.last_heard + settings.REALTIME_ACTIVITY_TIMEOUT)

    def _handshake_refusal(self) -> tuple[int, str] | None:
        if guards.plain_upgrade_refused(self.scope):  # 4000: pusher-js reconnects over wss
            return p.SSL_ONLY, "Application only accepts SSL connections, reconnect using wss://"
        if not hub().delivering:  # 4100: pusher-js tries again after a second, polling meanwhile
            return p.OVER_CAPACITY, "This server cannot deliver events right now; try again shortly."
        if self.scope["url_route"]["kwargs"].get("key") != settings.REALTIME_APP_KEY:
            return p.UNKNOWN_APP, "Application does not exist"
        query = parse_qs(self.scope.get("query_string", b"").decode(errors="replace"))
        version = (query.get("protocol") or [""])[0]
        if not version:
            return p.NO_PROTOCOL, "No protocol version supplied"
        if not version.isdigit() or int(version) not in p.PROTOCOL_VERSIONS:
            return p.UNSUPPORTED_PROTOCOL, f"Unsupported protocol version {version}"
        if len(_open_connections) >= settings.REALTIME_MAX_CONNECTIONS:
            return p.OVER_CONNECTION_QUOTA, "Application is over connection quota"
        if len(_open_connections) + hub().connections_elsewhere >= settings.REALTIME_MAX_APP_CONNECTIONS:
            return p.OVER_CONNECTION_QUOTA, "Application is over connection quota"
        if _per_address[self.address] >= settings.REALTIME_MAX_CONNECTIONS_PER_ADDRESS:
            return p.OVER_CAPACITY, "Too many connections from this address; try again later."
        return None

    async def disconnect(self, code: int) -> None:
        await self._leave_everything()

    async def close_for_shutdown(self) -> None:
        await self._leave_everything()
        await self.close(code=p.RECONNECT)

    async def close_for_outage(self) -> None:
        await self.send(p.error_frame(p.RECONNECT, "This server cannot deliver events right now; reconnect."))
        await self.close_for_shutdown()

    def holds_user(self, user_id: str) -> bool:
        """Whether this connection signed in as `user_id` or joined a presence channel as it: the
        user that the HTTP API's terminate_connections names (ids compared as strings: a member may
        have been signed as a number)."""
        return user_id == self.user_id or any(
            str(member) == user_id for member in self.subscriptions.values() if member is not None
        )

    async def terminate(self, message: str = "The app terminated this user's connections.") -> None:
        """terminate_connections, a refused sign-in: 4009 is in Pusher's do-not-reconnect range,
        so pusher-js stays off."""
        await self.send(p.error_frame(p.UNAUTHORIZED, message))
        await self._leave_everything()
        await self.close(code=p.UNAUTHORIZED)

    async def drop_subscription(self, channel: str) -> None:
        """A revoking broadcast (hub.py): this connection is off `channel`, hears and sends nothing
        there until it subscribes again with a fresh signature."""
        if channel in self.subscriptions:
            await self._unsubscribe(channel)

    async def _leave_everything(self) -> None:
        global _closed_connections
        if self in _open_connections:
            _open_connections.remove(self)
            _closed_connections += 1
            _per_address[self.address] -= 1
            if _per_address[self.address] <= 0:
                del _per_address[self.address]
        timer_wheel().cancel(self)
        user_auth.sign_out(self)
        for channel in list(getattr(self, "subscriptions", {})):
            try:
                await self._unsubscribe(channel)
            except Exception:
                logger.exception("could not leave %s cleanly", channel)

    async def check_activity(self, now: float) -> float | None:
        """Called by the process's timer wheel (keepalive.py) when this connection's check is
        due: ping a client silent for activity_timeout, close it (4201) when no pong came in
        time. Returns when to look again (None: closed)."""
        if self.ping_sent_at is not None:
            answer_by = self.ping_sent_at + settings.REALTIME_PONG_TIMEOUT
            if now < answer_by:
                return answer_by
            await self.send(p.error_frame(p.PONG_NOT_RECEIVED, "Pong reply not received"))
            await self.close(code=p.PONG_NOT_RECEIVED)
            return None
        ping_at = self.last_heard + settings.REALTIME_ACTIVITY_TIMEOUT
        if now < ping_at:
            return ping_at  # the client spoke since this check was scheduled
        self.ping_sent_at = now
        await self.send(p.frame("pusher:ping", {}))
        return now + settings.REALTIME_PONG_TIMEOUT

    async def _heard_from_client(self) -> None:
        self.last_heard, self.ping_sent_at = time.monotonic(), None

    # --------------------------------------------------------------------------- messages in

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self._heard_from_client()
        try:
            message = guards.parse_json(text_data if text_data is not None else bytes_data or b"")
            if not isinstance(message, dict):
                raise TypeError
            event = message["event"]
            if not isinstance(event, str):
                raise TypeError
        except (ValueError, TypeError, KeyError):
            await self.send(p.error_frame(p.INVALID_MESSAGE, "Messages are JSON objects with an `event`."))
            return
        data = message.get("data")
        if event.startswith("pusher:") and isinstance(data, str):
            try:
                data = guards.parse_json(data)  # some clients send the subscribe payload as a string
            except ValueError:
                data = None
        if event == "pusher:ping":
            await self.send(p.frame("pusher:pong", {}))
        elif event == "pusher:pong":
            pass
        elif event == "pusher:subscribe":
            data = data if isinstance(data, dict) else {}
            if user_channels.is_user_channel(data.get("channel")):
                await user_auth.subscribe(self, data["channel"])
            else:
                await self._subscribe(data)
        elif event == user_auth.SIGNIN:
            await user_auth.sign_in(self, data)
        elif event == "pusher:unsubscribe":
            channel = data.get("channel") if isinstance(data, dict) else None
            if isinstance(channel, str) and channel in self.subscriptions:
                await self._unsubscribe(channel)
        elif event.startswith("client-"):
            channel = message.get("channel")
            await self._client_event(event, channel if isinstance(channel, str) else None, data)
        # Anything else is ignored, as Pusher does.

    async def _subscribe(self, data: dict[str, object]) -> None:
        channel = data.get("channel")
        if not isinstance(channel, str) or not p.valid_channel_name(channel):
            await self.send(p.error_frame(p.INVALID_MESSAGE, "Invalid channel name."))
            return
        if channel not in self.subscriptions and guards.over_subscription_limit(len(self.subscriptions)):
            await self._refuse_over_limit(channel)
            return
        kind = p.channel_kind(channel)
        signs_member = kind == p.ChannelKind.PRESENCE or membership.rule_for(channel) is not None
        signed_data = data.get("channel_data") if signs_member else None
        # Signed as the client sent it (as text: that is what a signature covers).
        channel_data = str(signed_data) if signed_data is not None else None
        if kind == p.ChannelKind.PRESENCE and not isinstance(signed_data, str):
            await self.send(p.subscription_error_frame(channel, "Presence subscriptions need channel_data.", 401))
            return
        if kind != p.ChannelKind.PUBLIC and not channel_auth_valid(
            data.get("auth"), self.socket_id, channel, channel_data
        ):
            await self.send(p.subscription_error_frame(channel, "Invalid signature for this socket and channel.", 401))
            return
        if not await membership.member_now(channel, channel_data):
            await self.send(p.subscription_error_frame(channel, "You are not a member of this channel now.", 403))
            return
        if self not in _open_connections:  # closed while the channel's rule was asked
            return
        if kind == p.ChannelKind.PRESENCE:
            member = _member(channel_data)
            if member is None:
                await self.send(p.subscription_error_frame(channel, "channel_data needs a user_id.", 401))
                return
            user_id, user_info, quiet = member
            self.subscriptions[channel] = user_id
            if quiet:
                self.quiet_channels.add(channel)
            self._hold_until_replayed(channel)
            hub().join(channel, self, quiet=quiet)
            change = await presence_store().join(channel, self.socket_id, user_id, user_info, quiet=quiet)
            members = change.members
            if not quiet:
                self.presence_members[channel] = set(members)
            presence = {"presence": {"ids": list(members), "hash": members, "count": len(members)}}
            await self.send(p.frame("pusher_internal:subscription_succeeded", presence, channel))
            if change.added:
                added = {"user_id": user_id, "user_info": user_info}
                await self._publish(channel, p.MEMBER_ADDED, added, skip_self=True)
            await self._announce(channel, change)
            await self._replay(channel)
            return
        if channel not in self.subscriptions:
            self.subscriptions[channel] = None
            self._hold_until_replayed(channel)
            hub().join(channel, self)
            await presence_store().subscribe(channel)  # the HTTP API's subscription_count
        await self.send(p.frame("pusher_internal:subscription_succeeded", {}, channel))
        await self._replay(channel)

    def _hold_until_replayed(self, channel: str) -> None:
        if cache_channels.is_cache_channel(channel):
            self.held_for_replay.setdefault(channel, [])

    async def _replay(self, channel: str) -> None:
        """The cache channel's last event, then the live events that came meanwhile, in order."""
        await cache_channels.replay(self, channel)
        for message in self.held_for_replay.pop(channel, []):
            await self.base_send(message)

    async def channel_send(self, channel: str, message: WebSocketSendEvent) -> None:
        """A live event of `channel` from the hub: held while the channel's replay is under way."""
        held = self.held_for_replay.get(channel)
        if held is not None:
            held.append(message)
        else:
            await self.base_send(message)

    async def _refuse_over_limit(self, channel: str) -> None:
        """4303 on the connection (it stays), and the channel's own subscription_error, so a client
        library waiting on that channel hears that it is refused."""
        limit = settings.REALTIME_MAX_SUBSCRIPTIONS_PER_CONNECTION
        message = f"A connection may hold at most {limit} subscriptions; unsubscribe from one first."
        await self.send(p.error_frame(p.OVER_SUBSCRIPTION_LIMIT, message))
        await self.send(p.subscription_error_frame(channel, message, 429))

    async def _unsubscribe(self, channel: str) -> None:
        user_id = self.subscriptions.pop(channel, None)
        self.presence_members.pop(channel, None)
        self.quiet_channels.discard(channel)
        self.held_for_replay.pop(channel, None)
        hub().leave(channel, self)
        if user_id is not None:
            await self._announce(channel, await presence_store().leave(channel, self.socket_id))
        else:
            await presence_store().unsubscribe(channel)

    async def _announce(self, channel: str, change: Change) -> None:
        """`member_removed` for every user whose last connection has gone."""
        for user_id in change.gone:
            await self._publish(channel, p.MEMBER_REMOVED, {"user_id": user_id})

    def membership_news(self, channel: str, event: str, user_id: p.MemberId) -> bool:
        """Whether a member_added/member_removed is news to this client. The fan-out is
        asynchronous, so the news of a join can arrive after this client's own subscription
        snapshot already listed that member: such a repeat is dropped, as Pusher never sends it."""
        known = self.presence_members.get(channel)
        if known is None:
            return True
        if event == p.MEMBER_ADDED:
            if user_id in known:
                return False
            known.add(user_id)
            return True
        if user_id not in known:
            return False
        known.discard(user_id)
        return True

    async def _client_event(self, event: str, channel: str | None, data: object) -> None:
        if channel is None or channel not in self.subscriptions or p.channel_kind(channel) == p.ChannelKind.PUBLIC:
            message = "Client events are only allowed on private and presence channels this connection joined."
            await self.send(p.error_frame(p.UNAUTHORIZED, message))
            return
        if channel in self.quiet_channels:
            await self.send(p.error_frame(p.UNAUTHORIZED, "Quiet members may not send client events."))
            return
        second = int(time.monotonic())
        window_second, count = self.client_event_window
        count = count + 1 if window_second == second else 1
        self.client_event_window = (second, count)
        if count > p.CLIENT_EVENTS_PER_SECOND:
            await self.send(p.error_frame(p.CLIENT_EVENT_RATE_LIMIT, "Client event rejected due to rate limit."))
            return
        data = guards.encoded(data if data is not None else {})
        if data is None:
            await self.send(p.error_frame(p.INVALID_MESSAGE, "Client event data is nested too deep."))
            return
        if len(data) > p.MAX_CLIENT_EVENT_BYTES:
            await self.send(p.error_frame(p.INVALID_MESSAGE, "Client event data is larger than 10 KB."))
            return
        user_id = self.subscriptions[channel]
        extra = {"user_id": user_id} if user_id is not None else None
        await self._publish(channel, event, data, skip_self=True, extra=extra)

    async def _publish(
        self,
        channel: str,
        event: str,
        data: object,
        *,
        skip_self: bool = False,
        extra: Mapping[str, object] | None = None,
    ) -> None:
        """To every connection on `channel`, in every process (through the channel layer)."""
        skip = self.socket_id if skip_self else None
        await send(fanout_message([channel], event, data, skip=skip, extra=extra))


def _member(channel_data: str | None) -> tuple[p.MemberId, object, bool] | None:
    """(user id, user info, quiet) from the signed channel_data. The id keeps its JSON type (2
    stays a number: clients compare member ids with ===). `"quiet": true` (set by the auth
    endpoint, e.g. for a kiosk on its owner's channel) makes a member that is listed and announced
    but sees no other member, hears nothing on the channel and sends no client events there."""
    user_id = membership.signer(channel_data)
    if user_id is None or channel_data is None:
        return None
    parsed = json.loads(channel_data)  # signer() has parsed it once: a dict with that user_id
    return user_id, parsed.get("user_info", {}), parsed.get("quiet") is True


_shutting_down = False


async def close_for_outage() -> None:
    """The hub cannot reach the channel layer (hub.py): close every connection with 4200, so its
    client reconnects at once, to another process that can deliver, or is refused with 4100 here
    and polls meanwhile. Silent sockets would look healthy and hear nothing."""
    connections = list(_open_connections)
    await asyncio.gather(*(c.close_for_outage() for c in connections), return_exceptions=True)


async def shut_down() -> None:
    """At shutdown (config/serve.py): close every connection with 4200, so pusher-js reconnects
    at once, to another process behind the balancer; refuse new ones the same way; then leave
    the fan-out group."""
    global _shutting_down
    _shutting_down = True
    connections = list(_open_connections)
    await asyncio.gather(*(c.close_for_shutdown() for c in connections), return_exceptions=True)
    await stop_hub()
