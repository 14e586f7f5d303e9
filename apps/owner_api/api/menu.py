"""Owner API menu: an item's availability and stock (menu:write)."""

from typing import Any

from rest_framework import serializers

from apps.api.operations import Data
from apps.menu import services as menu_services
from apps.menu.models import MenuItem
from apps.owner_api import selectors
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, enveloped, owner_operation
from apps.owner_api.scopes import Scope


class MenuItemStockIn(serializers.Serializer[None]):
    active = serializers.BooleanField(required=False, help_text="false hides the item from agents.")
    track_stock = serializers.BooleanField(required=False)
    stock = serializers.IntegerField(
        min_value=0, max_value=1_000_000, required=False, help_text="Units left; sending it turns tracking on."
    )
    low_stock_threshold = serializers.IntegerField(
        min_value=0, max_value=1_000_000, required=False, allow_null=True, help_text="null: no inventory.low."
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if not attrs:
            raise serializers.ValidationError("Send at least one of active, track_stock, stock, low_stock_threshold.")
        if "stock" in attrs and "track_stock" not in attrs:
            attrs["track_stock"] = True
        return attrs


class MenuItemStockOut(serializers.Serializer[MenuItem]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    price_cents = serializers.IntegerField()
    active = serializers.BooleanField()
    track_stock = serializers.BooleanField()
    stock = serializers.IntegerField()
    low_stock_threshold = serializers.IntegerField(allow_null=True)
    sold_out = serializers.BooleanField()


class MenuItemView(OwnerAPIView):
    @owner_operation(Scope.MENU_WRITE, enveloped("OwnerMenuItem", MenuItemStockOut()), body=MenuItemStockIn)
    def patch(self, request: OwnerApiRequest, data: Data, item_id: int) -> MenuItem:
        """Change a menu item's availability, stock and low-stock threshold"""
        item = selectors.menu_item(owner_id=request.user.owner_id, item_id=item_id)
        return menu_services.menu_item_save(item=item, **data)
