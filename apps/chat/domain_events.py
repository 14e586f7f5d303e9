"""What happens in a session's chat (apps.core.events): kiosk- and agent-only, no webhook."""

from apps.chat.models import ChatMessage
from apps.core.events import Event, OwnerOf


class ChatMessagePosted(Event):
    """The kiosk or the agent wrote in the session's chat: both hear it on the call channel."""

    message: ChatMessage
    owner_id = OwnerOf("message.session.owner_id")
