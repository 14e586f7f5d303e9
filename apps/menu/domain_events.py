"""What happens to a menu (apps.core.events)."""

from typing import TypedDict

from apps.core.events import Event
from apps.menu.models import MenuItem


class InventoryLowPayload(TypedDict):
    menu_item_id: int
    name: str
    stock: int | None
    low_stock_threshold: int | None
    sold_out: bool


class InventoryLow(Event):
    """A sale took a tracked item's stock across its low-stock threshold (once per crossing)."""

    item: MenuItem
    owner_id: int
    webhook_name = "inventory.low"

    def webhook_payload(self) -> InventoryLowPayload:
        item = self.item
        return {
            "menu_item_id": item.pk,
            "name": item.name,
            "stock": item.stock,
            "low_stock_threshold": item.low_stock_threshold,
            "sold_out": item.stock == 0,
        }
