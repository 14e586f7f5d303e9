"""One host serves every surface (DESIGN.md URL map). Order matters: the kiosk and token
surfaces sit under /api/ too, so they are matched before the agent surface's catch-all."""

import time

from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import include, path
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from apps.agent_app.views import AgentDashboardView
from apps.api.docs import ApiDocsView
from apps.api.health import healthz, readyz
from apps.billing.api import processor as processor_webhooks
from apps.demo.landing import landing_page, new_kiosk_code
from apps.demo.printer_page import demo_printer_page
from apps.demo.webhook_receiver import demo_webhook_receiver
from apps.displays.pages import board_screen, kitchen_screen
from apps.kiosk_app.views import kiosk_app
from apps.menu.views import menu_photo
from apps.operations.metrics import metrics_view
from apps.orders.receipt_pages import receipt_page, receipt_qr
from apps.realtime_http import auth as realtime_auth
from apps.realtime_http import http_api as realtime_http_api
from apps.realtime_http import http_api_state as realtime_state_api

urlpatterns = [
    path("api/public/", include("config.urls_kiosk")),
    path("api/owner/", include("config.urls_owner")),
    path("api/", include("config.urls_integrations")),
    path("api/displays/", include("apps.displays.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", ApiDocsView.as_view(url_name="schema"), name="docs"),
    path("api/", include("config.urls_agent")),
    path("admin/", admin.site.urls),
    path("panel", RedirectView.as_view(url="/panel/", permanent=True, query_string=True)),
    path("panel/", include("apps.panel.urls")),
    path("agent", RedirectView.as_view(url="/agent/", permanent=True, query_string=True)),
    path("agent/", AgentDashboardView.as_view(), name="agent_dashboard"),
    path("kiosk", RedirectView.as_view(url="/kiosk/", permanent=True, query_string=True)),
    path("kiosk/", kiosk_app, name="kiosk_app"),
    path("kitchen", RedirectView.as_view(url="/kitchen/", permanent=True, query_string=True)),
    path("kitchen/", kitchen_screen, name="kitchen_screen"),
    path("board", RedirectView.as_view(url="/board/", permanent=True, query_string=True)),
    path("board/", board_screen, name="board_screen"),
    path("r/<str:token>", receipt_page, name="receipt_page"),
    path("r/<str:token>/qr.svg", receipt_qr, name="receipt_qr"),
    path("broadcasting/auth", realtime_auth.BroadcastingAuthView.as_view()),
    path("apps/<str:app_id>/events", realtime_http_api.EventsView.as_view()),
    path("apps/<str:app_id>/batch_events", realtime_http_api.BatchEventsView.as_view()),
    path("apps/<str:app_id>/channels", realtime_state_api.ChannelsView.as_view()),
    path("apps/<str:app_id>/channels/<str:channel>", realtime_state_api.ChannelView.as_view()),
    path("apps/<str:app_id>/channels/<str:channel>/users", realtime_state_api.ChannelUsersView.as_view()),
    path("apps/<str:app_id>/users/<str:user_id>/events", realtime_http_api.UserEventsView.as_view()),
    path(
        "apps/<str:app_id>/users/<str:user_id>/terminate_connections",
        realtime_state_api.TerminateUserConnectionsView.as_view(),
    ),
    # pusher-http-python 3.3 posts terminate_connections without /apps/{id}; not in the schema.
    path(
        "users/<str:user_id>/terminate_connections",
        realtime_state_api.TerminateUserConnectionsView.as_view(schema=None),
    ),
    path("processor/webhook", processor_webhooks.platform_webhook),
    path("processor/connect/webhook", processor_webhooks.connect_webhook),
    path("", landing_page, name="landing"),
    path(settings.MENU_PHOTOS_URL.strip("/") + "/<path:name>", menu_photo, name="menu_photo"),
    path("healthz", healthz),
    path("readyz", readyz),
    path("metrics", metrics_view),
]

if not settings.PRODUCTION:  # the demo's own helpers (apps/demo): a kiosk pairing code, a webhook receiver
    urlpatterns.append(path("demo/kiosk-pairing-code", new_kiosk_code, name="demo_kiosk_code"))
    urlpatterns.append(path("demo-webhooks/receiver", demo_webhook_receiver, name="demo_webhook_receiver"))
    urlpatterns.append(path("demo-printer/", demo_printer_page, name="demo_printer"))

if settings.DEMO_PROCESSOR:  # local and test runs without a processor key (docs/decisions/payments.md)
    urlpatterns.append(path("demo-processor/", include("apps.demo_processor.urls")))

if settings.BENCH_ROUTES:  # the reference for bench/kiosk_poll.py: a bare Django JSON view

    def bench_ping(request: HttpRequest) -> JsonResponse:
        return JsonResponse({"ok": True})

    def bench_sleep(
        request: HttpRequest,
    ) -> JsonResponse:  # a slow request in flight for tests/operations/test_graceful_shutdown.py
        time.sleep(min(float(request.GET.get("seconds", "1")), 30.0))
        return JsonResponse({"ok": True})

    urlpatterns.append(path("bench/ping", bench_ping))
    urlpatterns.append(path("bench/sleep", bench_sleep))

# Errors raised outside DRF views (middleware) still answer in the surface's envelope.
handler400 = "apps.api.fallback_errors.bad_request"
handler500 = "apps.api.fallback_errors.server_error"
