"""A signed-in user's group, `#server-to-user-{id}` (user_auth.py says what signing in is), and
what a server may publish to: a channel, or such a group. Names only, so that the broadcast API
and the HTTP API check a target without the hub that delivers to it."""

from apps.realtime import protocol

USER_CHANNEL_PREFIX = "#server-to-user-"


def valid_user_id(user_id: object) -> bool:
    """Pusher's user ids share the channel-name alphabet and its 200 characters (the libraries
    refuse others), so a user id always fits in the HTTP API's paths."""
    return protocol.valid_channel_name(user_id)


def user_channel(user_id: str) -> str:
    return f"{USER_CHANNEL_PREFIX}{user_id}"


def is_user_channel(name: object) -> bool:
    return (
        isinstance(name, str)
        and name.startswith(USER_CHANNEL_PREFIX)
        and valid_user_id(name[len(USER_CHANNEL_PREFIX) :])
    )


def valid_target(channel: object) -> bool:
    """What a server may publish to: a channel, or a user's group."""
    return protocol.valid_channel_name(channel) or is_user_channel(channel)
