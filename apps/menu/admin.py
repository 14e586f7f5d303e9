from django.contrib import admin

from apps.menu import services
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption


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
class CatalogAdmin(admin.ModelAdmin):
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
class CategoryAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "catalog", "sort_order"]
    search_fields = ["name", "catalog__name"]


@admin.register(MenuItem)
class MenuItemAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "category", "price_cents", "active", "track_stock", "stock", "low_stock_threshold"]
    list_filter = ["active", "track_stock", "category__catalog__business__owner"]
    search_fields = ["name", "category__name"]
    inlines = [ModifierGroupInline]


@admin.register(ModifierGroup)
class ModifierGroupAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "item", "required", "min", "max"]
    search_fields = ["name", "item__name"]
    inlines = [ModifierOptionInline]
