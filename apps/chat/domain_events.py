"""What happens in a session's chat (apps.core.events): kiosk- and agent-only, no webhook."""

from dataclasses import dataclass

from apps.chat.models import ChatMessage
from apps.core.events import Event


@dataclass(frozen=True)
class ChatMessagePosted(Event):
    """The kiosk or the agent wrote in the session's chat: both hear it on the call channel."""

    message: ChatMessage

    @property
    def owner_id(self) -> int:
        return self.message.session.owner_id
