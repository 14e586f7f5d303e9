"""ASGI entry point: `config.asgi:application` (daphne serves HTTP and the Pusher-protocol
WebSocket at /app/{key})."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi_app = get_asgi_application()

from apps.api import http_limits  # noqa: E402
from apps.core.jobs import start_embedded_beat  # noqa: E402

http_limits.install()  # daphne answers an oversized request head with 431, not a dropped connection

start_embedded_beat()  # periodic sweeps in the embedded mode (production runs Celery beat)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)

from apps.realtime.routing import websocket_urlpatterns  # noqa: E402

# No origin check on the WebSocket: kiosks connect from their own app origin, and nothing is
# delivered on a private or presence channel without a subscription signed by our auth endpoints.
application = ProtocolTypeRouter({"http": django_asgi_app, "websocket": URLRouter(websocket_urlpatterns)})
