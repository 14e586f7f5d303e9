"""Kiosk API, mounted at /api/public/ (the spec's {kiosk_api_url})."""

from django.urls import path, re_path

from apps.api.views import UnknownRouteView
from apps.billing.api import kiosk as billing
from apps.chat.api import views as chat
from apps.kiosk_app.catalogue import KioskCatalogueView
from apps.kiosks.api import kiosk as kiosks
from apps.menu.api import kiosk as menu
from apps.orders.api import kiosk as orders
from apps.printing.api import kiosk as printing
from apps.realtime_http import auth as realtime_auth
from apps.sessions.api import kiosk as sessions
from apps.sessions.api.video import kiosk as video

urlpatterns = [
    path("i18n/<str:language>", KioskCatalogueView.as_view(), name="kiosk_catalogue"),
    path("kiosks/pair", kiosks.PairView.as_view()),
    path("kiosks/heartbeat", kiosks.HeartbeatView.as_view()),
    path("kiosks/me", kiosks.KioskProfileView.as_view()),
    path("menu", menu.PublicMenuView.as_view()),
    path("sessions/start", sessions.StartSessionView.as_view()),
    path("sessions/<str:public_id>/status", sessions.SessionStatusView.as_view()),
    path("sessions/<str:public_id>/cancel", sessions.CancelSessionView.as_view()),
    path("sessions/<str:public_id>/point", sessions.PointAtItemView.as_view()),
    path("sessions/<str:public_id>/locale", sessions.SessionLocaleView.as_view()),
    path("sessions/<str:public_id>/accessible", sessions.SessionAccessibleView.as_view()),
    path("sessions/<str:public_id>/timeout", sessions.SessionTimeoutView.as_view()),
    path("sessions/<str:public_id>/order", orders.SessionOrderView.as_view()),
    path("sessions/<str:public_id>/dining", orders.SessionDiningView.as_view()),
    path("sessions/<str:public_id>/receipt", orders.SessionReceiptView.as_view()),
    path("sessions/<str:public_id>/receipt/print", printing.SessionReceiptPrintView.as_view()),
    path("sessions/<str:public_id>/payment", billing.SessionPaymentView.as_view()),
    path("sessions/<str:public_id>/payment/cancel", billing.CancelSelfServicePaymentView.as_view()),
    path("sessions/<str:public_id>/payment/card-fields", billing.CardFieldsFallbackView.as_view()),
    path("sessions/<str:public_id>/chat", chat.KioskChatView.as_view()),
    path("video/token", video.VideoTokenView.as_view()),
    path("video/token/refresh", video.VideoTokenRefreshView.as_view()),
    path("broadcasting/auth", realtime_auth.KioskBroadcastingAuthView.as_view()),
    path("broadcasting/channels", realtime_auth.KioskChannelsView.as_view()),
    re_path(r"^[\s\S]*$", UnknownRouteView.as_view()),  # [\s\S]: a path may hold a newline
]
