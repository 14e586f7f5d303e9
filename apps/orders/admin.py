"""Super-admin: orders, read-only. An order moves through the fulfilment services (panel, owner
API, processor events), which emit `order.status_changed` and tell the kiosk; the admin does not."""

from django.contrib import admin
from django.http import HttpRequest

from apps.orders.models import Order, OrderLine, OrderSettings


class OrderLineInline(admin.TabularInline[OrderLine, Order]):
    model = OrderLine
    extra = 0
    readonly_fields = ["position", "menu_item", "name", "quantity", "unit_price_cents", "modifiers", "notes"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Order | None = None) -> bool:
        return False


@admin.register(Order)
class OrderAdmin(admin.ModelAdmin[Order]):
    list_display = ["id", "number", "business", "status", "total_cents", "currency", "created_at"]
    list_filter = ["status", "owner", "currency"]
    search_fields = ["number", "session__public_id", "business__name"]
    list_select_related = ["business"]
    date_hierarchy = "created_at"
    readonly_fields = [field.name for field in Order._meta.fields]
    inlines = [OrderLineInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(OrderSettings)
class OrderSettingsAdmin(admin.ModelAdmin[OrderSettings]):
    """Read-only: owners set them on the panel's Settings page."""

    list_display = ["business", "ask_dining", "keep_receipt_email"]
    readonly_fields = [field.name for field in OrderSettings._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
