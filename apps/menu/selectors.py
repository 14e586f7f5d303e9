"""Reads of the menu: the active catalog of a business, fully loaded in a fixed number of
queries (one per level), whatever the menu's size."""

from django.db.models import Count, Prefetch, QuerySet

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


def active_catalog_head(*, business_id: int) -> Catalog | None:
    """The business's active catalog's id, language and version (the menu read's ETag), in one
    indexed query: what a kiosk's conditional menu read costs when nothing changed."""
    return Catalog.objects.filter(business_id=business_id, is_active=True).only("pk", "language", "version").first()


def items_for_order(*, business_id: int, item_ids: set[int]) -> dict[int, MenuItem]:
    """The active catalog's items among `item_ids`, with their groups and options loaded."""
    options = Prefetch("options", queryset=ModifierOption.objects.order_by("sort_order", "pk"))
    groups = Prefetch("modifier_groups", queryset=ModifierGroup.objects.prefetch_related(options))
    items = MenuItem.objects.filter(
        pk__in=item_ids, category__catalog__business_id=business_id, category__catalog__is_active=True
    ).prefetch_related(groups)
    return {item.pk: item for item in items}


# --- The owner panel's reads: every menu object an owner may see, written once per model. ------
# Each returns None for another owner's object (the panel answers 404).


def catalogs_of_owner(*, owner_id: int) -> QuerySet[Catalog]:
    """The owner's catalogs with their category and item counts, by business, active first."""
    return (
        Catalog.objects.filter(business__owner_id=owner_id)
        .select_related("business")
        .annotate(category_count=Count("categories", distinct=True), item_count=Count("categories__items"))
        .order_by("business__name", "-is_active", "name")
    )


def catalog_of_owner(*, owner_id: int, catalog_id: int) -> Catalog | None:
    return Catalog.objects.select_related("business").filter(business__owner_id=owner_id, pk=catalog_id).first()


def category_of_owner(*, owner_id: int, category_id: int) -> Category | None:
    return (
        Category.objects.select_related("catalog__business")
        .filter(catalog__business__owner_id=owner_id, pk=category_id)
        .first()
    )


def item_of_owner(*, owner_id: int, item_id: int) -> MenuItem | None:
    return (
        MenuItem.objects.select_related("category__catalog__business")
        .filter(category__catalog__business__owner_id=owner_id, pk=item_id)
        .first()
    )


def group_of_owner(*, owner_id: int, group_id: int, item_id: int | None = None) -> ModifierGroup | None:
    groups = ModifierGroup.objects.select_related("item__category__catalog").filter(
        item__category__catalog__business__owner_id=owner_id, pk=group_id
    )
    if item_id is not None:
        groups = groups.filter(item_id=item_id)
    return groups.first()


def option_of_owner(*, owner_id: int, option_id: int, group_id: int) -> ModifierOption | None:
    return ModifierOption.objects.filter(
        group__item__category__catalog__business__owner_id=owner_id, group_id=group_id, pk=option_id
    ).first()


def catalog_contents(*, catalog: Catalog) -> list[Category]:
    """Every category of `catalog` with all its items (hidden ones too), groups and options."""
    items = Prefetch("items", queryset=MenuItem.objects.prefetch_related("modifier_groups__options"))
    return list(Category.objects.filter(catalog=catalog).prefetch_related(items))


def item_groups(*, item: MenuItem) -> list[ModifierGroup]:
    return list(ModifierGroup.objects.filter(item=item).prefetch_related("options"))
