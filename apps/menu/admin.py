from typing import Any, TypeVar

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.menu import services
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption
from apps.menu.services import MenuEntry

_E = TypeVar("_E", bound=MenuEntry)


class TouchesCatalog(admin.ModelAdmin[_E]):
    """Admin edits go through Django's model forms, not the menu services: each save or delete
    still bumps the catalog's version, so kiosks' cached menus (their ETag) see the change."""

    def save_model(self, request: HttpRequest, obj: _E, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        services.catalog_touch(catalog_id=services.catalog_id_of(obj))

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> None:
        super().save_formset(request, form, formset, change)
        services.catalog_touch(catalog_id=services.catalog_id_of(form.instance))

    def delete_model(self, request: HttpRequest, obj: _E) -> None:
        services.catalog_touch(catalog_id=services.catalog_id_of(obj))
        super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[_E]) -> None:
        for obj in queryset:
            services.catalog_touch(catalog_id=services.catalog_id_of(obj))
        super().delete_queryset(request, queryset)


class CategoryInline(admin.TabularInline[Category, Catalog]):
    model = Category
    extra = 0
    show_change_link = True


class ModifierGroupInline(admin.TabularInline[ModifierGroup, MenuItem]):
    model = ModifierGroup
    extra = 0
    show_change_link = True


class ModifierOptionInline(admin.TabularInline[ModifierOption, ModifierGroup]):
    model = ModifierOption
    extra = 0


@admin.register(Catalog)
class CatalogAdmin(TouchesCatalog[Catalog]):
    list_display = ["id", "name", "business", "is_active", "created_at"]
    list_filter = ["is_active", "business__owner"]
    search_fields = ["name", "business__name"]
    inlines = [CategoryInline]
    # A business sells from one catalog: activation goes through the service, which stops the
    # business's other active catalog in the same transaction.
    readonly_fields = ["is_active"]
    actions = ["activate"]

    def get_readonly_fields(self, request: HttpRequest, obj: Catalog | None = None) -> list[str]:
        return [*self.readonly_fields, "business"] if obj else list(self.readonly_fields)

    @admin.action(description="Make the selected catalog its business's active menu")
    def activate(self, request: HttpRequest, queryset: QuerySet[Catalog]) -> None:
        for catalog in queryset:
            services.catalog_activate(catalog=catalog)


@admin.register(Category)
class CategoryAdmin(TouchesCatalog[Category]):
    list_display = ["id", "name", "catalog", "sort_order"]
    search_fields = ["name", "catalog__name"]


@admin.register(MenuItem)
class MenuItemAdmin(TouchesCatalog[MenuItem]):
    list_display = ["id", "name", "category", "price_cents", "active", "track_stock", "stock", "low_stock_threshold"]
    list_filter = ["active", "track_stock", "category__catalog__business__owner"]
    search_fields = ["name", "category__name"]
    inlines = [ModifierGroupInline]


@admin.register(ModifierGroup)
class ModifierGroupAdmin(TouchesCatalog[ModifierGroup]):
    list_display = ["id", "name", "item", "required", "min", "max"]
    search_fields = ["name", "item__name"]
    inlines = [ModifierOptionInline]
