"""Serves the agent dashboard's one HTML page. Everything the dashboard shows comes from the public
agent API and the real-time channels; the page only carries the public client configuration."""

from typing import Any

from django.conf import settings
from django.views.generic import TemplateView

from apps.agent_app.vendor import AGORA_SDK, PUSHER_JS


class AgentDashboardView(TemplateView):
    template_name = "agent/index.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context["config"] = {
            "realtimeKey": settings.REALTIME_APP_KEY,  # public, like in every Pusher client
            "authEndpoint": "/broadcasting/auth",
            "forceTLS": self.request.is_secure(),
            "pollSeconds": settings.AGENT_FALLBACK_POLL_SECONDS,
            # While the socket is down but the polls are answered, the live link is tried again
            # this often (pusher-js's own tries space out to a minute: static/agent/realtime.js).
            "reconnectSeconds": 5,
            "chatMaxLength": settings.CHAT_MESSAGE_MAX_LENGTH,
            "chatOpenSeconds": settings.CHAT_AGENT_OPEN_SECONDS,
        }
        context["pusher_js"] = PUSHER_JS
        context["agora_sdk"] = AGORA_SDK
        return context
