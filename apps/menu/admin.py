from django.contrib import admin

from apps.menu import services
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption


class TouchesCatalog(admin.ModelAdmin):
    """Admin edits go through Django's model forms, not the menu services: each save or delete
    still bumps the catalog's version, so kiosks' cached menus (their ETag) see the change."""

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        services.catalog_touch(catalog_id=services.catalog_id_of(obj))

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        services.catalog_touch(catalog_id=services.catalog_id_of(form.instance))

    def delete_model(self, request, obj):
        services.catalog_touch(catalog_id=services.catalog_id_of(obj))
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for obj in queryset:
            services.catalog_touch(catalog_id=services.catalog_id_of(obj))
        super().delete_queryset(request, queryset)


class CategoryInline(admin.TabularInline):
    model = Category
    extra = 0
    show_change_link = True


class ModifierGroupInline(admin.TabularInline):
    model = ModifierGroup
    extra = 0
    show_change_link = True


class ModifierOptionInline(admin.TabularInline):
    model = ModifierOption
    extra = 0


@admin.register(Catalog)
class CatalogAdmin(TouchesCatalog):
    list_display = ["id", "name", "business", "is_active", "created_at"]
    list_filter = ["is_active", "business__owner"]
    search_fields = ["name", "business__name"]
    inlines = [CategoryInline]
    # A business sells from one catalog: activation goes through the service, which stops the
    # business's other active catalog in the same transaction.
    readonly_fields = ["is_active"]
    actions = ["activate"]

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "business"] if obj else self.readonly_fields

    @admin.action(description="Make the selected catalog its business's active menu")
    def activate(self, request, queryset):
        for catalog in queryset:
            services.catalog_activate(catalog=catalog)


@admin.register(Category)
class CategoryAdmin(TouchesCatalog):
    list_display = ["id", "name", "catalog", "sort_order"]
    search_fields = ["name", "catalog__name"]


@admin.register(MenuItem)
class MenuItemAdmin(TouchesCatalog):
    list_display = ["id", "name", "category", "price_cents", "active", "track_stock", "stock", "low_stock_threshold"]
    list_filter = ["active", "track_stock", "category__catalog__business__owner"]
    search_fields = ["name", "category__name"]
    inlines = [ModifierGroupInline]


@admin.register(ModifierGroup)
class ModifierGroupAdmin(TouchesCatalog):
    list_display = ["id", "name", "item", "required", "min", "max"]
    search_fields = ["name", "item__name"]
    inlines = [ModifierOptionInline]
