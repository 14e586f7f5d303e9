"""ASGI entry point: `config.asgi:application` (daphne serves HTTP and, later, WebSockets)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_asgi_app = get_asgi_application()

from apps.core.jobs import start_embedded_beat  # noqa: E402

start_embedded_beat()  # periodic sweeps in the embedded mode (production runs Celery beat)

from channels.routing import ProtocolTypeRouter  # noqa: E402  (needs Django set up first)

application = ProtocolTypeRouter({"http": django_asgi_app})
