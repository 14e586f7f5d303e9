"""User authentication, as Pusher has it (pusher-js `pusher.signin()`): a connection sends
`pusher:signin` with `user_data` (a JSON object with an `id`) and `auth`, the app secret's
HMAC-SHA256 of `{socket_id}::user::{user_data}`, signed by the integrator's own endpoint (the
server libraries' `authenticate_user`). The answer is `pusher:signin_success`; a wrong signature or
a user_data without a usable id is `pusher:error` 4009 and the connection is closed with 4009.

A signed-in connection joins its user's group, `#server-to-user-{id}` (the name Pusher and its
libraries use), in this process's hub: an event the HTTP API sends there (the libraries'
`send_to_user`, or `POST /apps/{id}/users/{user_id}/events`) reaches every connection of that user
on every web process through the one fan-out message, and terminate_connections closes them.
pusher-js subscribes to that name after signing in; the subscription is answered for the user's
own group only, and is not a channel (the HTTP API does not list it).

Our own apps do not sign in (their channels are signed by /broadcasting/auth); the feature is for
integrators holding the app secret, so there is no user-authentication endpoint here.
"""

import json
from typing import Protocol

from apps.realtime import protocol
from apps.realtime.hub import Subscriber, hub
from apps.realtime.signing import user_auth_valid
from apps.realtime.user_channels import user_channel, valid_user_id

SIGNIN = "pusher:signin"
SIGNIN_SUCCESS = "pusher:signin_success"


def _user_id(user_data: str) -> str | None:
    try:
        parsed = json.loads(user_data)
    except ValueError:
        return None
    user_id = parsed.get("id") if isinstance(parsed, dict) else None
    return user_id if valid_user_id(user_id) else None


class Connection(Subscriber, Protocol):
    """A connection as signing in sees it (consumer.PusherConsumer)."""

    user_id: str | None

    async def send(self, text_data: str) -> None: ...
    async def terminate(self, message: str = ...) -> None: ...


async def sign_in(consumer: Connection, data: object) -> None:
    """`pusher:signin`. Signing in again (another id) moves the connection to the new user."""
    data = data if isinstance(data, dict) else {}
    user_data = data.get("user_data")
    if not isinstance(user_data, str) or not user_auth_valid(data.get("auth"), consumer.socket_id, user_data):
        await consumer.terminate("Invalid signature for this socket and user_data.")
        return
    user_id = _user_id(user_data)
    if user_id is None:
        await consumer.terminate("user_data must be a JSON object whose `id` is a string of channel-name characters.")
        return
    sign_out(consumer)
    consumer.user_id = user_id
    hub().join(user_channel(user_id), consumer)
    await consumer.send(protocol.frame(SIGNIN_SUCCESS, {"user_data": user_data}))


def sign_out(consumer: Connection) -> None:
    """The connection leaves its user's group (it closes, or signs in as someone else)."""
    user_id = getattr(consumer, "user_id", None)
    if user_id is not None:
        hub().leave(user_channel(user_id), consumer)
        consumer.user_id = None


async def subscribe(consumer: Connection, channel: str) -> None:
    """pusher-js subscribes to `#server-to-user-{id}` once signed in: succeeded for the connection's
    own user (it already receives there), refused for anyone else's."""
    if consumer.user_id is not None and channel == user_channel(consumer.user_id):
        await consumer.send(protocol.frame("pusher_internal:subscription_succeeded", {}, channel))
        return
    await consumer.send(protocol.subscription_error_frame(channel, "Sign in as this user first.", 401))
