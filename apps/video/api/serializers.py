"""Input and output shapes shared by the kiosk and agent video token views."""

from rest_framework import serializers

from apps.sessions.video_call import ROLE_PUBLISHER, ROLES

CHANNEL_MAX_LENGTH = 64


class VideoTokenIn(serializers.Serializer):
    """The query of GET .../video/token and the body of POST .../video/token/refresh."""

    channel = serializers.CharField(max_length=CHANNEL_MAX_LENGTH, help_text="The session id (ses_...).")
    role = serializers.ChoiceField(
        choices=ROLES,
        required=False,
        default=ROLE_PUBLISHER,
        help_text="publisher (default, both sides) or subscriber.",
    )


class VideoTokenOut(serializers.Serializer):
    app_id = serializers.CharField()
    token = serializers.CharField()
    channel = serializers.CharField()
    uid = serializers.IntegerField()
    expires_at = serializers.DateTimeField()
