"""Agent API: video tokens for the session the agent accepted."""

from apps.accounts.api.base import AgentAPIView
from apps.sessions import video_call
from apps.sessions.api.video.views import video_token_views

VideoTokenView, VideoTokenRefreshView = video_token_views(
    AgentAPIView,
    lambda request, channel, role: video_call.video_token_for_agent(agent=request.user, channel=channel, role=role),
    summary="A video token for the session this agent accepted (channel = session id, valid 60 minutes)",
)
