"""Input and output shapes of the chat endpoints (kiosk and agent alike)."""

from rest_framework import serializers

from apps.api.fields import StrictCharField
from apps.chat.bodies import ChatMessageBody
from apps.chat.services import PAGE_MAX

TEXT_INPUT_MAX = 10_000  # anything longer is refused before the service's own (shorter) limit


class ChatPageIn(serializers.Serializer[None]):
    after = serializers.IntegerField(
        min_value=0, required=False, default=0, help_text="A message id: the page after it."
    )
    limit = serializers.IntegerField(min_value=1, max_value=PAGE_MAX, required=False, default=50)


class ChatMessageIn(serializers.Serializer[None]):
    text = StrictCharField(
        max_length=TEXT_INPUT_MAX,
        trim_whitespace=False,
        allow_blank=True,
        help_text="Plain text, 1 to CHAT_MESSAGE_MAX_LENGTH (500) characters once trimmed.",
    )


class ChatPageOut(serializers.Serializer[None]):
    messages = ChatMessageBody(many=True)
    has_more = serializers.BooleanField(help_text="More messages follow: ask again with after = the last id.")
