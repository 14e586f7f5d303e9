"""The screens' API, mounted at /api/displays/ (before the agent surface's catch-all)."""

from django.urls import path, re_path

from apps.api.views import UnknownRouteView
from apps.displays.api import views

urlpatterns = [
    path("me", views.DisplayMeView.as_view()),
    path("kitchen/tickets", views.KitchenTicketsView.as_view()),
    path("kitchen/tickets/<str:order_id>/status", views.KitchenTicketMoveView.as_view()),
    path("kitchen/tickets/<str:order_id>/reprint", views.KitchenTicketReprintView.as_view()),
    path("board", views.BoardView.as_view()),
    path("broadcasting/auth", views.DisplayBroadcastingAuthView.as_view()),
    re_path(r"^[\s\S]*$", UnknownRouteView.as_view()),
]
