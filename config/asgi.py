"""ASGI entry point: `config.asgi:application` (daphne serves HTTP and the Pusher-protocol
WebSocket at /app/{key})."""

import os
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from asgiref.typing import ASGI3Application

import django
from asgiref.typing import ASGIReceiveCallable, ASGISendCallable

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup(set_prefix=False)  # what get_asgi_application() does before building its handler

from apps.api.handler import OneHopASGIHandler  # noqa: E402

django_asgi_app = OneHopASGIHandler()  # the middleware chain in one thread hop (apps/api/handler.py)

from apps.api import http_limits  # noqa: E402
from apps.core.jobs import start_embedded_beat  # noqa: E402

http_limits.install()  # daphne answers an oversized request head with 431, not a dropped connection

start_embedded_beat()  # periodic sweeps in the embedded mode (production runs Celery beat)

from apps.demo.demo_printer import start_demo_printer  # noqa: E402

start_demo_printer()  # `make run`'s demo printer (the local mode, its default address only)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs Django set up first)

from apps.core.client_address import without_untrusted_proxy_headers  # noqa: E402
from apps.kiosk_app.hot_path import KioskHotPath  # noqa: E402
from apps.realtime.routing import websocket_urlpatterns  # noqa: E402

# No origin check on the WebSocket: kiosks connect from their own app origin, and nothing is
# delivered on a private or presence channel without a subscription signed by our auth endpoints.
# HTTP: the kiosk's status poll and heartbeat are answered by a lean route in front of Django
# (apps/kiosk_app/hot_path.py, docs/decisions/kiosks.md "Kiosk hot path"); everything else by Django.
# django-stubs types Django's ASGIHandler with plain dicts, asgiref with its own scope types: one
# application, two typings.
django_asgi3 = cast("ASGI3Application", django_asgi_app)
router = ProtocolTypeRouter({"http": KioskHotPath(django_asgi3), "websocket": URLRouter(websocket_urlpatterns)})


async def application(scope: dict[str, Any], receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
    """Only a trusted proxy may say the request came over https (apps.core.client_address)."""
    await router(without_untrusted_proxy_headers(scope), receive, send)


# Garbage collection: what starting made (modules, settings, the URLconf and every view it imports)
# is taken out of the collector's generations once. Under load the objects of the requests in
# flight outlive the young generations, so full collections came every ~1,500 requests and each
# walked all ~150k start-up objects: about 0.3 ms a request (docs/scaling.md). Now a full
# collection walks only what was made since. A young collection comes every 50,000 allocations,
# not 700: a request in flight makes hundreds, so at 700 its objects were collected over and over
# and promoted while still alive (about 10 % of the kiosk hot path's CPU); the garbage that cycles
# leave meanwhile is a few MB at most.
import gc  # noqa: E402

from django.urls import get_resolver  # noqa: E402

get_resolver().url_patterns  # noqa: B018  (imports the URLconf and its views now, not at the first request)
gc.collect()
gc.freeze()
gc.set_threshold(50_000, 20, 20)
