"""What the dashboard's live kiosk status needs to reach the Pusher-protocol server.

Live status is attempted when the realtime app is installed and the page came through ASGI
(daphne serves the WebSocket path /app/{key} on the same host; a WSGI server cannot).
PANEL_LIVE_STATUS = True/False forces it on or off. When it is off, or the socket fails, the
page keeps the server-rendered status.
"""

from django.apps import apps
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest
from django.middleware.csrf import get_token

from apps.panel.access import PanelRequest
from apps.realtime.channels import owner_channel


def live_status_enabled(request: HttpRequest) -> bool:
    forced = getattr(settings, "PANEL_LIVE_STATUS", None)
    if forced is not None:
        return bool(forced)
    return apps.is_installed("apps.realtime") and isinstance(request, ASGIRequest)


def live_status_config(request: PanelRequest) -> dict[str, object] | None:
    if not live_status_enabled(request):
        return None
    return {
        "key": settings.REALTIME_APP_KEY,
        "channel": owner_channel(request.user.owner_id),
        "authEndpoint": "/broadcasting/auth",
        "forceTLS": request.is_secure(),
        "csrfToken": get_token(request),  # the auth endpoint is a POST with the session cookie
    }
