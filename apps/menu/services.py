"""State changes for menus."""

from django.db import transaction

from apps.accounts.models import Business
from apps.core import events
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption


def catalog_import(*, business: Business, spec: dict, activate: bool = True) -> Catalog:
    """Create a whole catalog from nested data:
    {name, categories: [{name, items: [{name, price_cents, ..., modifier_groups: [{name,
    required, min, max, options: [{name, price_cents}]}]}]}]}. Activating it deactivates the
    business's previous active catalog."""
    with transaction.atomic():
        if activate:
            Catalog.objects.filter(business=business, is_active=True).update(is_active=False)
        catalog = Catalog.objects.create(business=business, name=spec["name"], is_active=activate)
        for category_order, category_spec in enumerate(spec["categories"]):
            category = Category.objects.create(catalog=catalog, name=category_spec["name"], sort_order=category_order)
            for item_order, item_spec in enumerate(category_spec["items"]):
                groups = item_spec.get("modifier_groups", [])
                fields = {key: value for key, value in item_spec.items() if key != "modifier_groups"}
                item = MenuItem.objects.create(category=category, sort_order=item_order, **fields)
                for group_order, group_spec in enumerate(groups):
                    options = group_spec.get("options", [])
                    group_fields = {key: value for key, value in group_spec.items() if key != "options"}
                    group = ModifierGroup.objects.create(item=item, sort_order=group_order, **group_fields)
                    ModifierOption.objects.bulk_create(
                        ModifierOption(group=group, sort_order=n, **option) for n, option in enumerate(options)
                    )
    return catalog


def stock_consume(*, quantities: dict[int, int], owner_id: int) -> None:
    """Take confirmed quantities off tracked stock; crossing an item's low-stock threshold
    emits `inventory.low` once (the crossing, not every sale below it)."""
    items = MenuItem.objects.select_for_update().filter(pk__in=quantities, track_stock=True).order_by("pk")
    for item in items:
        before = item.stock
        item.stock = max(0, before - quantities[item.pk])
        item.save(update_fields=["stock"])
        threshold = item.low_stock_threshold
        if threshold is not None and before > threshold >= item.stock:
            events.emit(
                "inventory.low",
                {
                    "menu_item_id": item.pk,
                    "name": item.name,
                    "stock": item.stock,
                    "low_stock_threshold": threshold,
                    "sold_out": item.stock == 0,
                },
                owner_id=owner_id,
            )
