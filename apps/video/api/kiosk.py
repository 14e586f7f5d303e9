"""Kiosk API: video tokens for the kiosk's own live session."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.api.inputs import validated
from apps.api.views import KioskAPIView
from apps.sessions import video_call
from apps.video.api.serializers import VideoTokenIn, VideoTokenOut


class _VideoTokenBase(KioskAPIView):
    def token_response(self, request, data: dict) -> Response:
        token = video_call.video_token_for_kiosk(kiosk=request.auth, channel=data["channel"], role=data["role"])
        return Response(VideoTokenOut(token).data)


class VideoTokenView(_VideoTokenBase):
    @extend_schema(
        parameters=[VideoTokenIn],
        responses={200: VideoTokenOut},
        summary="A video token for this kiosk's active session (channel = session id, valid 60 minutes)",
    )
    def get(self, request):
        return self.token_response(request, validated(VideoTokenIn, request.query_params))


class VideoTokenRefreshView(_VideoTokenBase):
    @extend_schema(
        request=VideoTokenIn,
        responses={200: VideoTokenOut},
        summary="A fresh video token for the same channel, before the current one expires",
    )
    def post(self, request):
        return self.token_response(request, validated(VideoTokenIn, request.data))
