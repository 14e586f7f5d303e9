"""State changes for menus."""

from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import F

from apps.accounts.models import Business
from apps.core import events
from apps.core.errors import DomainError, ErrorCode
from apps.menu import photos
from apps.menu.domain_events import InventoryLow
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption


def catalog_touch(*, catalog_id: int) -> None:
    """Record that the catalog's menu read changes (a new ETag; cached bodies are not reused).
    Every service below that alters what a kiosk reads calls it in its transaction."""
    Catalog.objects.filter(pk=catalog_id).update(version=F("version") + 1)


MenuEntry = Catalog | Category | MenuItem | ModifierGroup | ModifierOption
_E = TypeVar("_E", bound=MenuEntry)


def catalog_id_of(entry: MenuEntry) -> int:
    if isinstance(entry, Catalog):
        return entry.pk
    if isinstance(entry, Category):
        return entry.catalog_id
    if isinstance(entry, MenuItem):
        return Category.objects.values_list("catalog_id", flat=True).get(pk=entry.category_id)
    if isinstance(entry, ModifierGroup):
        return MenuItem.objects.values_list("category__catalog_id", flat=True).get(pk=entry.item_id)
    return ModifierGroup.objects.values_list("item__category__catalog_id", flat=True).get(pk=entry.group_id)


def catalog_import(*, business: Business, spec: dict[str, Any], activate: bool = True) -> Catalog:
    """Create a whole catalog from nested data:
    {name, categories: [{name, items: [{name, price_cents, ..., modifier_groups: [{name,
    required, min, max, options: [{name, price_cents}]}]}]}]}. Activating it deactivates the
    business's previous active catalog."""
    with transaction.atomic():
        if activate:
            Catalog.objects.filter(business=business, is_active=True).update(is_active=False)
        catalog = Catalog.objects.create(
            business=business, name=spec["name"], language=spec.get("language", "en"), is_active=activate
        )
        for category_order, category_spec in enumerate(spec["categories"]):
            category = Category.objects.create(
                catalog=catalog,
                name=category_spec["name"],
                translations=category_spec.get("translations", {}),
                sort_order=category_order,
            )
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
    touched = set()
    for item in items:
        before = item.stock
        item.stock = max(0, before - quantities[item.pk])
        item.save(update_fields=["stock"])
        if (before > 0) != (item.stock > 0):
            touched.add(item.category_id)  # sold out (or back): the kiosk's menu read changes
        threshold = item.low_stock_threshold
        if threshold is not None and before > threshold >= item.stock:
            events.emit(InventoryLow(item, owner_id=owner_id))
    for catalog_id in set(Category.objects.filter(pk__in=touched).values_list("catalog_id", flat=True)):
        catalog_touch(catalog_id=catalog_id)


# --- Owner panel edits. Each validates with the model's own validators. -------------------


def _save_validated(instance: _E, fields: dict[str, Any], *, exclude: list[str]) -> _E:
    for name, value in fields.items():
        setattr(instance, name, value)
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "The menu entry is invalid.", details=exc.message_dict) from exc
    with transaction.atomic():
        instance.save()
        catalog_touch(catalog_id=catalog_id_of(instance))
    return instance


def catalog_create(*, business: Business, name: str, language: str = "en") -> Catalog:
    fields = {"name": name, "language": language, "is_active": False}
    return _save_validated(Catalog(business=business), fields, exclude=["business"])


def catalog_activate(*, catalog: Catalog) -> None:
    """Make `catalog` the menu agents sell from; the business's previous active one stops."""
    with transaction.atomic():
        Catalog.objects.select_for_update().filter(business_id=catalog.business_id).exists()
        Catalog.objects.filter(business_id=catalog.business_id, is_active=True).exclude(pk=catalog.pk).update(
            is_active=False
        )
        Catalog.objects.filter(pk=catalog.pk).update(is_active=True, version=F("version") + 1)
    catalog.is_active = True


def category_save(*, category: Category, **fields: Any) -> Category:
    return _save_validated(category, fields, exclude=["catalog"])


def menu_item_save(
    *, item: MenuItem, photo_upload: UploadedFile[bytes] | None = None, remove_photo: bool = False, **fields: Any
) -> MenuItem:
    """Create or edit an item: names and translations, price, allergens, dietary tags,
    availability, stock and low-stock threshold; and its photo: `photo_upload` (an uploaded file,
    checked and re-encoded by apps.menu.photos before anything is saved) or `remove_photo`."""
    if photo_upload is not None:
        fields["photo"] = photos.photo_save(photos.photo_prepare(photo_upload))
    elif remove_photo:
        fields["photo"] = ""
    return _save_validated(item, fields, exclude=["category", "photo"])


def modifier_group_save(*, group: ModifierGroup, **fields: Any) -> ModifierGroup:
    if fields.get("min", group.min) > fields.get("max", group.max):
        raise DomainError(
            ErrorCode.VALIDATION_ERROR, "The menu entry is invalid.", details={"min": ["Must not exceed max."]}
        )
    return _save_validated(group, fields, exclude=["item"])


def modifier_option_save(*, option: ModifierOption, **fields: Any) -> ModifierOption:
    return _save_validated(option, fields, exclude=["group"])


def menu_entry_delete(*, entry: Category | MenuItem | ModifierGroup | ModifierOption) -> None:
    """Past orders keep their copied names and prices (OrderLine.menu_item becomes null)."""
    with transaction.atomic():
        catalog_touch(catalog_id=catalog_id_of(entry))
        entry.delete()
