"""WebSocket routes: the Pusher protocol endpoint `/app/{key}` (pusher-js connects to
`ws://{wsHost}:{wsPort}/app/{key}?protocol=7&client=js&version=...`)."""

from django.urls import re_path

from apps.realtime.consumer import PusherConsumer

websocket_urlpatterns = [re_path(r"^app/(?P<key>[^/]+)$", PusherConsumer.as_asgi())]
