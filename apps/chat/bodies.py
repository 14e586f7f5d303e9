"""The one shape of a chat message, for the API and the real-time event alike."""

from typing import TypedDict

from rest_framework import serializers

from apps.chat.models import ChatMessage, Sender
from apps.core.timefmt import iso_z


class ChatMessageBody(serializers.Serializer[None]):
    """For the OpenAPI schema; `message_body` builds it."""

    id = serializers.CharField()
    session_id = serializers.CharField()
    sender = serializers.ChoiceField(choices=Sender.choices)
    sender_name = serializers.CharField(allow_null=True, help_text="The agent's name; null for the kiosk.")
    text = serializers.CharField(help_text="Plain text: show it as text, never as markup.")
    created_at = serializers.DateTimeField()


class MessageBody(TypedDict):
    id: str
    session_id: str
    sender: str
    sender_name: str | None
    text: str
    created_at: str


def message_body(message: ChatMessage) -> MessageBody:
    return {
        "id": str(message.pk),
        "session_id": message.session.public_id,
        "sender": message.sender,
        "sender_name": message.agent.name if message.sender == Sender.AGENT and message.agent else None,
        "text": message.text,
        "created_at": iso_z(message.created_at),
    }
