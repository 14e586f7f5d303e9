"""Agent API, mounted at /api/ (cookie session + X-XSRF-TOKEN)."""

from django.urls import path, re_path

from apps.accounts.api import agent as accounts
from apps.agent_app.api import sessions as dashboard
from apps.agent_app.api import sign_in
from apps.api.views import UnknownRouteView
from apps.billing.api import agent as billing
from apps.chat.api import views as chat
from apps.orders.api import agent as orders
from apps.reports.api import agent as reports
from apps.routing.api import agent as routing
from apps.sessions.api import agent as sessions
from apps.sessions.api.video import agent as video

urlpatterns = [
    path("csrf-cookie", accounts.CsrfCookieView.as_view()),
    path("login", sign_in.LoginView.as_view()),
    path("login/2fa", sign_in.LoginTwoFactorView.as_view()),
    path("logout", accounts.LogoutView.as_view()),
    path("user", accounts.CurrentUserView.as_view()),
    path("agent/status", accounts.AgentStatusView.as_view()),
    path("tokens", accounts.AccessTokenListView.as_view()),
    path("tokens/<int:token_id>", accounts.AccessTokenDetailView.as_view()),
    path("sessions/incoming", routing.IncomingView.as_view()),
    path("sessions/current", dashboard.CurrentSessionView.as_view()),
    path("sessions/mine", sessions.MySessionsView.as_view()),
    path("sessions/<str:public_id>", dashboard.SessionDetailView.as_view()),
    path("sessions/<str:public_id>/accept", routing.AcceptView.as_view()),
    path("sessions/<str:public_id>/end", sessions.EndView.as_view()),
    path("sessions/<str:public_id>/show", sessions.ShowItemView.as_view()),
    path("sessions/<str:public_id>/read-aloud", sessions.ReadAloudView.as_view()),
    path("sessions/<str:public_id>/transfer", routing.TransferView.as_view()),
    path("sessions/<str:public_id>/payment", billing.SendToPaymentView.as_view()),
    path("sessions/<str:public_id>/payment/cancel", billing.CancelPaymentView.as_view()),
    path("sessions/<str:public_id>/chat", chat.AgentChatView.as_view()),
    path("menu", sessions.MenuView.as_view()),
    path("orders", orders.OrdersView.as_view()),
    path("reports/me/today", reports.MyTodayView.as_view()),
    path("video/token", video.VideoTokenView.as_view()),
    path("video/token/refresh", video.VideoTokenRefreshView.as_view()),
    re_path(r"^[\s\S]*$", UnknownRouteView.as_view()),  # [\s\S]: a path may hold a newline
]
