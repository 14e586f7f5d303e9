"""The names of the private and presence channels the service broadcasts on (docs/realtime.md).
Who may join each is decided by the channel rule of the realtime surface (apps/realtime_http/access.py)."""


def agent_channel(agent_id: int) -> str:
    return f"private-agent.{agent_id}"


def kiosk_channel(kiosk_id: int) -> str:
    return f"private-kiosk.{kiosk_id}"


def owner_channel(owner_id: int) -> str:
    return f"presence-owner.{owner_id}"


def kitchen_channel(business_id: int) -> str:
    return f"private-kitchen.{business_id}"


def board_channel(business_id: int) -> str:
    return f"private-board.{business_id}"


def call_channel(session_public_id: str) -> str:
    """One session's call: WebRTC signalling (client events) and its chat messages."""
    return f"private-call.{session_public_id}"
