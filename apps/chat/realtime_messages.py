"""The chat's real-time message (docs/realtime.md): a subscriber of config/event_subscribers.py,
sent on commit to the session's call channel, which only its kiosk and current agent may join."""

from apps.chat.bodies import message_body
from apps.chat.domain_events import ChatMessagePosted
from apps.core.models import DomainEvent
from apps.realtime.broadcast import broadcast
from apps.realtime.channels import call_channel


def chat_message_posted(event: ChatMessagePosted, recorded: DomainEvent | None = None) -> None:
    broadcast([call_channel(event.message.session.public_id)], "ChatMessage", message_body(event.message))
