"""Kiosk API: video tokens for the kiosk's own live session."""

from apps.kiosks.api.base import KioskAPIView
from apps.sessions import video_call
from apps.sessions.api.video.views import video_token_views

VideoTokenView, VideoTokenRefreshView = video_token_views(
    KioskAPIView,
    lambda request, channel, role: video_call.video_token_for_kiosk(kiosk=request.auth, channel=channel, role=role),
    summary="A video token for this kiosk's active session (channel = session id, valid 60 minutes)",
)
