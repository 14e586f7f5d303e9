"""State changes for menus."""

from django.core.exceptions import ValidationError
from django.db import transaction

from apps.accounts.models import Business
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.menu.domain_events import InventoryLow
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
            events.emit(InventoryLow(item, owner_id=owner_id))


# --- Owner panel edits (issue 8). Each validates with the model's own validators. ----------


def _save_validated(instance, fields: dict, *, exclude: list[str]):
    for name, value in fields.items():
        setattr(instance, name, value)
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "The menu entry is invalid.", details=exc.message_dict) from exc
    with transaction.atomic():
        instance.save()
    return instance


def catalog_create(*, business: Business, name: str) -> Catalog:
    return _save_validated(Catalog(business=business), {"name": name, "is_active": False}, exclude=["business"])


def catalog_activate(*, catalog: Catalog) -> None:
    """Make `catalog` the menu agents sell from; the business's previous active one stops."""
    with transaction.atomic():
        Catalog.objects.select_for_update().filter(business_id=catalog.business_id).exists()
        Catalog.objects.filter(business_id=catalog.business_id, is_active=True).exclude(pk=catalog.pk).update(
            is_active=False
        )
        Catalog.objects.filter(pk=catalog.pk).update(is_active=True)
    catalog.is_active = True


def category_save(*, category: Category, **fields) -> Category:
    return _save_validated(category, fields, exclude=["catalog"])


def menu_item_save(*, item: MenuItem, **fields) -> MenuItem:
    """Create or edit an item: price, photo URL, availability, stock and low-stock threshold."""
    return _save_validated(item, fields, exclude=["category"])


def modifier_group_save(*, group: ModifierGroup, **fields) -> ModifierGroup:
    if fields.get("min", group.min) > fields.get("max", group.max):
        raise DomainError(
            ErrorCode.VALIDATION_ERROR, "The menu entry is invalid.", details={"min": ["Must not exceed max."]}
        )
    return _save_validated(group, fields, exclude=["item"])


def modifier_option_save(*, option: ModifierOption, **fields) -> ModifierOption:
    return _save_validated(option, fields, exclude=["group"])


def menu_entry_delete(*, entry: Category | MenuItem | ModifierGroup | ModifierOption) -> None:
    """Past orders keep their copied names and prices (OrderLine.menu_item becomes null)."""
    with transaction.atomic():
        entry.delete()
