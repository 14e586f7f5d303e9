"""Owner API: /api/owner/* (OAuth client-credentials API keys; bearer access tokens)."""

from django.urls import path, re_path

from apps.api.views import UnknownRouteView
from apps.owner_api.api import agents, businesses, kiosks, menu, orders, printers, reports, token

urlpatterns = [
    path("oauth/token", token.OwnerTokenView.as_view()),
    path("kiosks", kiosks.KioskListView.as_view()),
    path("kiosks/pairing-codes", kiosks.PairingCodeCreateView.as_view()),
    path("kiosks/<int:kiosk_id>", kiosks.KioskDetailView.as_view()),
    path("kiosks/<int:kiosk_id>/unpair", kiosks.KioskUnpairView.as_view()),
    path("kiosks/<int:kiosk_id>/reader", kiosks.KioskReaderView.as_view()),
    path("orders", orders.OwnerOrderListView.as_view()),
    path("orders/<int:order_id>/status", orders.OrderStatusView.as_view()),
    path("orders/<int:order_id>/refund", orders.OrderRefundView.as_view()),
    path("reports/sessions", reports.OwnerSessionReportView.as_view()),
    path("reports/items", reports.OwnerItemReportView.as_view()),
    path("menu/items/<int:item_id>", menu.MenuItemView.as_view()),
    path("businesses/<int:business_id>", businesses.BusinessDetailView.as_view()),
    path("printers", printers.PrinterListView.as_view()),
    path("printers/<int:printer_id>", printers.PrinterDetailView.as_view()),
    path("printers/<int:printer_id>/test-page", printers.PrinterTestPageView.as_view()),
    path("agents", agents.AgentListView.as_view()),
    path("agents/capacity", agents.OwnerCapacityView.as_view()),
    path("agents/<int:agent_id>/capacity", agents.AgentCapacityView.as_view()),
    re_path(r"^[\s\S]*$", UnknownRouteView.as_view()),  # [\s\S]: a path may hold a newline
]
