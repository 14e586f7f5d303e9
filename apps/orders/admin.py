"""Super-admin: orders, read-only. An order moves through the fulfilment services (panel, owner
API, processor events), which emit `order.status_changed` and tell the kiosk; the admin does not."""

from django.contrib import admin

from apps.core.admin_bases import FieldsReadOnlyAdmin, ReadOnlyInline
from apps.orders.models import Order, OrderLine, OrderSettings


class OrderLineInline(ReadOnlyInline[OrderLine, Order]):
    model = OrderLine
    readonly_fields = ["position", "menu_item", "name", "quantity", "unit_price_cents", "modifiers", "notes"]


@admin.register(Order)
class OrderAdmin(FieldsReadOnlyAdmin[Order]):
    list_display = ["id", "number", "business", "status", "total_cents", "currency", "created_at"]
    list_filter = ["status", "owner", "currency"]
    search_fields = ["number", "session__public_id", "business__name"]
    list_select_related = ["business"]
    date_hierarchy = "created_at"
    inlines = [OrderLineInline]


@admin.register(OrderSettings)
class OrderSettingsAdmin(FieldsReadOnlyAdmin[OrderSettings]):
    """Read-only: owners set them on the panel's Settings page."""

    list_display = ["business", "ask_dining", "keep_receipt_email"]
