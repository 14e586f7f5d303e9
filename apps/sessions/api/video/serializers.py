"""Input and output shapes shared by the kiosk and agent video token views."""

from rest_framework import serializers

from apps.sessions.video_call import ROLE_PUBLISHER, ROLES, VideoToken

CHANNEL_MAX_LENGTH = 64


class VideoTokenIn(serializers.Serializer[None]):
    """The query of GET .../video/token and the body of POST .../video/token/refresh."""

    channel = serializers.CharField(max_length=CHANNEL_MAX_LENGTH, help_text="The session id (ses_...).")
    role = serializers.ChoiceField(
        choices=ROLES,
        required=False,
        default=ROLE_PUBLISHER,
        help_text="publisher (default, both sides) or subscriber.",
    )


class IceServerOut(serializers.Serializer[None]):
    urls = serializers.ListField(child=serializers.CharField(), help_text="stun: or turn:/turns: URLs.")
    username = serializers.CharField(required=False, help_text="TURN only: '<expiry unix time>:<uid>'.")
    credential = serializers.CharField(required=False, help_text="TURN only: base64(HMAC-SHA1(secret, username)).")


class VideoTokenOut(serializers.Serializer[VideoToken]):
    """The spec's video token; the self-hosted provider (app_id "webrtc") adds `ice_servers`,
    `signalling_channel` and `ice_restart_seconds`, which the managed provider's answer never has."""

    app_id = serializers.CharField(help_text='The provider\'s app id; "webrtc" for the self-hosted provider.')
    token = serializers.CharField()
    channel = serializers.CharField()
    uid = serializers.IntegerField()
    expires_at = serializers.DateTimeField()
    ice_servers = IceServerOut(many=True, required=False, help_text="webrtc only: RTCPeerConnection iceServers.")
    signalling_channel = serializers.CharField(
        required=False, help_text="webrtc only: the private channel of the call (private-call.{session id})."
    )
    ice_restart_seconds = serializers.FloatField(
        required=False,
        help_text='webrtc only: a connection "disconnected" this long restarts ICE (VIDEO_ICE_RESTART_SECONDS).',
    )

    def to_representation(self, instance: VideoToken) -> dict[str, object]:
        body = super().to_representation(instance)
        return {name: value for name, value in body.items() if value is not None}
