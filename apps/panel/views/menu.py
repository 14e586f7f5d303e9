"""Menu: catalogs (create, activate), categories, items (price, photo URL, availability, stock),
modifier groups and options. Every object is looked up inside the signed-in owner."""

from django.contrib import messages
from django.db.models import Count, Prefetch
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from apps.core.errors import DomainError
from apps.menu import services as menu_services
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption
from apps.panel.access import ANY_ROLE, owned_or_404, panel_page
from apps.panel.forms import BusinessChoiceForm
from apps.panel.menu_forms import (
    CatalogForm,
    CategoryForm,
    MenuItemForm,
    ModifierGroupForm,
    ModifierOptionForm,
)
from apps.panel.pages import businesses_of, error_text, render_page, report_error

CATALOG_OWNER = "business__owner"
CATEGORY_OWNER = "catalog__business__owner"
ITEM_OWNER = "category__catalog__business__owner"


@panel_page(ANY_ROLE)
def catalog_list(request):
    businesses = businesses_of(request)
    form = CatalogForm(request.POST or None)
    business_form = BusinessChoiceForm(request.POST or None, businesses=businesses)
    if request.method == "POST" and form.is_valid() and business_form.is_valid():
        try:
            catalog = menu_services.catalog_create(business=business_form.cleaned_data["business"], **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(request, f"Catalog {catalog.name} created; add categories and items, then activate it.")
            return redirect("panel:catalog", catalog_id=catalog.pk)
    catalogs = (
        Catalog.objects.filter(business__owner_id=request.user.owner_id)
        .select_related("business")
        .annotate(category_count=Count("categories", distinct=True), item_count=Count("categories__items"))
        .order_by("business__name", "-is_active", "name")
    )
    context = {"catalogs": catalogs, "form": form, "business_form": business_form}
    return render_page(request, "panel/menu.html", context, section="menu")


@panel_page(ANY_ROLE)
def catalog_detail(request, catalog_id: int):
    items = Prefetch("items", queryset=MenuItem.objects.prefetch_related("modifier_groups__options"))
    catalog = owned_or_404(Catalog.objects.select_related("business"), request, CATALOG_OWNER, pk=catalog_id)
    form = CategoryForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            menu_services.category_save(category=Category(catalog=catalog), **form.cleaned_data)
        except DomainError as exc:
            report_error(request, exc)
        return redirect("panel:catalog", catalog_id=catalog.pk)
    categories = Category.objects.filter(catalog=catalog).prefetch_related(items)
    context = {"catalog": catalog, "categories": categories, "form": form}
    return render_page(request, "panel/catalog.html", context, section="menu")


@panel_page(ANY_ROLE)
@require_POST
def catalog_activate(request, catalog_id: int):
    catalog = owned_or_404(Catalog.objects.all(), request, CATALOG_OWNER, pk=catalog_id)
    menu_services.catalog_activate(catalog=catalog)
    messages.success(request, f"{catalog.name} is now the menu agents sell from.")
    return redirect("panel:menu")


@panel_page(ANY_ROLE)
@require_POST
def category_edit(request, category_id: int):
    category = owned_or_404(Category.objects.select_related("catalog"), request, CATEGORY_OWNER, pk=category_id)
    if request.POST.get("action") == "delete":
        menu_services.menu_entry_delete(entry=category)
        messages.success(request, f"Category {category.name} deleted.")
        return redirect("panel:catalog", catalog_id=category.catalog_id)
    form = CategoryForm(request.POST)
    if form.is_valid():
        try:
            menu_services.category_save(category=category, **form.cleaned_data)
        except DomainError as exc:
            report_error(request, exc)
    else:
        messages.error(request, "Give the category a name and a sort order.")
    return redirect("panel:catalog", catalog_id=category.catalog_id)


def _save_item(request, item: MenuItem, form: MenuItemForm):
    try:
        menu_services.menu_item_save(item=item, **form.model_fields())
    except DomainError as exc:
        form.add_error(None, error_text(exc))
        return None
    messages.success(request, f"{item.name} saved.")
    return redirect("panel:menu_item", item_id=item.pk)


@panel_page(ANY_ROLE)
def item_create(request, category_id: int):
    category = owned_or_404(Category.objects.select_related("catalog"), request, CATEGORY_OWNER, pk=category_id)
    form = MenuItemForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        response = _save_item(request, MenuItem(category=category), form)
        if response is not None:
            return response
    context = {"form": form, "category": category, "catalog": category.catalog, "item": None}
    return render_page(request, "panel/menu_item.html", context, section="menu")


@panel_page(ANY_ROLE)
def item_edit(request, item_id: int):
    item = owned_or_404(MenuItem.objects.select_related("category__catalog"), request, ITEM_OWNER, pk=item_id)
    if request.method == "POST" and request.POST.get("action") == "delete":
        menu_services.menu_entry_delete(entry=item)
        messages.success(request, f"{item.name} deleted.")
        return redirect("panel:catalog", catalog_id=item.category.catalog_id)
    form = MenuItemForm(request.POST or None, initial=MenuItemForm.initial_for(item))
    if request.method == "POST" and form.is_valid():
        response = _save_item(request, item, form)
        if response is not None:
            return response
    groups = ModifierGroup.objects.filter(item=item).prefetch_related("options")
    context = {
        "form": form,
        "item": item,
        "category": item.category,
        "catalog": item.category.catalog,
        "groups": groups,
        "group_form": ModifierGroupForm(),
        "option_form": ModifierOptionForm(),
    }
    return render_page(request, "panel/menu_item.html", context, section="menu")


@panel_page(ANY_ROLE)
@require_POST
def group_save(request, item_id: int, group_id: int | None = None):
    """Add a modifier group to an item (no group_id) or edit/delete one."""
    item = owned_or_404(MenuItem.objects.all(), request, ITEM_OWNER, pk=item_id)
    group = ModifierGroup(item=item)
    if group_id is not None:
        group = owned_or_404(ModifierGroup.objects.filter(item=item), request, "item__" + ITEM_OWNER, pk=group_id)
    if group.pk and request.POST.get("action") == "delete":
        menu_services.menu_entry_delete(entry=group)
        return redirect("panel:menu_item", item_id=item.pk)
    form = ModifierGroupForm(request.POST)
    if form.is_valid():
        try:
            menu_services.modifier_group_save(group=group, **form.cleaned_data)
        except DomainError as exc:
            report_error(request, exc)
    else:
        messages.error(request, "Check the group: a name, and 0 <= min <= max <= 50.")
    return redirect("panel:menu_item", item_id=item.pk)


@panel_page(ANY_ROLE)
@require_POST
def option_save(request, group_id: int, option_id: int | None = None):
    """Add an option to a modifier group (no option_id) or edit/delete one."""
    group = owned_or_404(ModifierGroup.objects.all(), request, "item__" + ITEM_OWNER, pk=group_id)
    option = ModifierOption(group=group)
    if option_id is not None:
        option = owned_or_404(
            ModifierOption.objects.filter(group=group), request, "group__item__" + ITEM_OWNER, pk=option_id
        )
    if option.pk and request.POST.get("action") == "delete":
        menu_services.menu_entry_delete(entry=option)
        return redirect("panel:menu_item", item_id=group.item_id)
    form = ModifierOptionForm(request.POST)
    if form.is_valid():
        try:
            menu_services.modifier_option_save(option=option, **form.model_fields())
        except DomainError as exc:
            report_error(request, exc)
    else:
        messages.error(request, "Give the option a name and a price of 0 or more.")
    return redirect("panel:menu_item", item_id=group.item_id)
