"""Reads of the menu: the active catalog of a business, fully loaded in a fixed number of
queries (one per level), whatever the menu's size."""

from django.db.models import Prefetch

from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption


def active_catalog_categories(*, business_id: int) -> list[Category]:
    """Categories of the business's active catalog with active items, groups and options."""
    options = Prefetch("options", queryset=ModifierOption.objects.order_by("sort_order", "pk"))
    groups = Prefetch("modifier_groups", queryset=ModifierGroup.objects.prefetch_related(options))
    items = Prefetch("items", queryset=MenuItem.objects.filter(active=True).prefetch_related(groups))
    catalog = Catalog.objects.filter(business_id=business_id, is_active=True).only("pk").first()
    if catalog is None:
        return []
    return list(Category.objects.filter(catalog=catalog).prefetch_related(items))


def items_for_order(*, business_id: int, item_ids: set[int]) -> dict[int, MenuItem]:
    """The active catalog's items among `item_ids`, with their groups and options loaded."""
    options = Prefetch("options", queryset=ModifierOption.objects.order_by("sort_order", "pk"))
    groups = Prefetch("modifier_groups", queryset=ModifierGroup.objects.prefetch_related(options))
    items = MenuItem.objects.filter(
        pk__in=item_ids, category__catalog__business_id=business_id, category__catalog__is_active=True
    ).prefetch_related(groups)
    return {item.pk: item for item in items}
