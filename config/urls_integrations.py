"""Owner-scoped token API: /api/auth/* and /api/v1/* (bearer token)."""

from django.urls import path, re_path

from apps.accounts.api import integrations as accounts
from apps.api.views import UnknownRouteView
from apps.orders.api import integrations as orders
from apps.reports.api import integrations as reports
from apps.webhooks.api import integrations as webhooks

urlpatterns = [
    path("auth/login", accounts.TokenLoginView.as_view()),
    path("auth/logout", accounts.TokenLogoutView.as_view()),
    path("v1/user", accounts.TokenUserView.as_view()),
    path("v1/orders", orders.IntegrationOrderListView.as_view()),
    path("v1/reports/sessions", reports.SessionReportView.as_view()),
    path("v1/reports/items", reports.ItemReportView.as_view()),
    path("v1/webhooks", webhooks.WebhookListView.as_view()),
    path("v1/webhooks/<int:subscription_id>", webhooks.WebhookDetailView.as_view()),
    re_path(r"^(auth|v1)(/[\s\S]*)?$", UnknownRouteView.as_view()),  # [\s\S]: a path may hold a newline
]
