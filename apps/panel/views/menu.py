"""Menu: catalogs (create, activate), categories, items (names and their translations, price,
photo, allergens, dietary tags, availability, stock), modifier groups and options. Every object
is read through the menu's tenant-scoped selectors, inside the signed-in owner."""

from collections.abc import Callable
from typing import Any, TypeVar

from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.core.errors import DomainError
from apps.menu import photos
from apps.menu import selectors as menu_selectors
from apps.menu import services as menu_services
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption
from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.forms import BusinessChoiceForm
from apps.panel.menu_forms import (
    CatalogForm,
    CategoryForm,
    MenuItemForm,
    ModifierGroupForm,
    ModifierOptionForm,
    TranslatedForm,
    other_languages,
)
from apps.panel.pages import businesses_of, error_text, object_action, render_page, report_error

_T = TypeVar("_T")
_Entry = TypeVar("_Entry", Category, ModifierGroup, ModifierOption)


def _or_404(found: _T | None) -> _T:
    if found is None:
        raise Http404("No such object in your account.")
    return found


def _catalog(request: PanelRequest, catalog_id: int) -> Catalog:
    return _or_404(menu_selectors.catalog_of_owner(owner_id=request.user.owner_id, catalog_id=catalog_id))


def _entry_save(
    request: PanelRequest,
    entry: _Entry,
    form: TranslatedForm,
    save: Callable[[_Entry, dict[str, Any]], object],
    *,
    invalid: str,
    back: HttpResponseRedirect,
    deleted: str | None = None,
) -> HttpResponseRedirect:
    """Delete a saved menu entry (action=delete, saying `deleted`), or save the form's fields into
    it (a refusal or an `invalid` form said as an error); then go `back`."""
    if entry.pk and request.POST.get("action") == "delete":
        menu_services.menu_entry_delete(entry=entry)
        if deleted:
            messages.success(request, deleted)
        return back
    if form.is_valid():
        try:
            save(entry, form.model_fields())
        except DomainError as exc:
            report_error(request, exc)
    else:
        messages.error(request, invalid)
    return back


@panel_page(ANY_ROLE)
def catalog_list(request: PanelRequest) -> HttpResponseBase:
    businesses = businesses_of(request)
    form = CatalogForm(request.POST or None)
    business_form = BusinessChoiceForm(request.POST or None, businesses=businesses)
    if request.method == "POST" and form.is_valid() and business_form.is_valid():
        try:
            catalog = menu_services.catalog_create(business=business_form.cleaned_data["business"], **form.cleaned_data)
        except DomainError as exc:
            form.add_error(None, error_text(exc))
        else:
            messages.success(
                request,
                _("Catalog {name} created; add categories and items, then activate it.").format(name=catalog.name),
            )
            return redirect("panel:catalog", catalog_id=catalog.pk)
    catalogs = menu_selectors.catalogs_of_owner(owner_id=request.user.owner_id)
    context = {"catalogs": catalogs, "form": form, "business_form": business_form}
    return render_page(request, "panel/menu.html", context, section="menu")


@panel_page(ANY_ROLE)
def catalog_detail(request: PanelRequest, catalog_id: int) -> HttpResponseBase:
    catalog = _catalog(request, catalog_id)
    form = CategoryForm(request.POST or None, catalog_language=catalog.language)
    if request.method == "POST" and form.is_valid():
        try:
            menu_services.category_save(category=Category(catalog=catalog), **form.model_fields())
        except DomainError as exc:
            report_error(request, exc)
        return redirect("panel:catalog", catalog_id=catalog.pk)
    context = {
        "catalog": catalog,
        "categories": menu_selectors.catalog_contents(catalog=catalog),
        "form": form,
        "languages": other_languages(catalog.language),
    }
    return render_page(request, "panel/catalog.html", context, section="menu")


@object_action(_catalog, lambda catalog: redirect("panel:menu"), access=ANY_ROLE, id_name="catalog_id")
def catalog_activate(catalog: Catalog) -> str:
    menu_services.catalog_activate(catalog=catalog)
    return _("{name} is now the menu agents sell from.").format(name=catalog.name)


@panel_page(ANY_ROLE)
@require_POST
def category_edit(request: PanelRequest, category_id: int) -> HttpResponseRedirect:
    category = _or_404(menu_selectors.category_of_owner(owner_id=request.user.owner_id, category_id=category_id))
    return _entry_save(
        request,
        category,
        CategoryForm(request.POST, catalog_language=category.catalog.language),
        lambda category, fields: menu_services.category_save(category=category, **fields),
        invalid=_("Give the category a name and a sort order."),
        back=redirect("panel:catalog", catalog_id=category.catalog_id),
        deleted=_("Category {name} deleted.").format(name=category.name),
    )


def _save_item(request: PanelRequest, item: MenuItem, form: MenuItemForm) -> HttpResponseRedirect | None:
    try:
        menu_services.menu_item_save(item=item, **form.model_fields())
    except DomainError as exc:
        form.add_error("photo" if "photo" in (exc.details or {}) else None, error_text(exc))
        return None
    messages.success(request, _("{name} saved.").format(name=item.name))
    return redirect("panel:menu_item", item_id=item.pk)


def _item_form(request: PanelRequest, catalog: Catalog, item: MenuItem | None) -> MenuItemForm:
    initial = MenuItemForm.initial_for(item) if item is not None else None
    return MenuItemForm(
        request.POST or None, request.FILES or None, initial=initial, catalog_language=catalog.language, entry=item
    )


@panel_page(ANY_ROLE)
def item_create(request: PanelRequest, category_id: int) -> HttpResponse:
    category = _or_404(menu_selectors.category_of_owner(owner_id=request.user.owner_id, category_id=category_id))
    form = _item_form(request, category.catalog, None)
    if request.method == "POST" and form.is_valid():
        response = _save_item(request, MenuItem(category=category), form)
        if response is not None:
            return response
    context = {"form": form, "category": category, "catalog": category.catalog, "item": None}
    return render_page(request, "panel/menu_item.html", context, section="menu")


@panel_page(ANY_ROLE)
def item_edit(request: PanelRequest, item_id: int) -> HttpResponse:
    item = _or_404(menu_selectors.item_of_owner(owner_id=request.user.owner_id, item_id=item_id))
    catalog = item.category.catalog
    if request.method == "POST" and request.POST.get("action") == "delete":
        menu_services.menu_entry_delete(entry=item)
        messages.success(request, _("{name} deleted.").format(name=item.name))
        return redirect("panel:catalog", catalog_id=catalog.pk)
    form = _item_form(request, catalog, item)
    if request.method == "POST" and form.is_valid():
        response = _save_item(request, item, form)
        if response is not None:
            return response
    context = {
        "form": form,
        "item": item,
        "photo_url": photos.photo_url(item.photo.name or ""),
        "category": item.category,
        "catalog": catalog,
        "groups": menu_selectors.item_groups(item=item),
        "languages": other_languages(catalog.language),
    }
    return render_page(request, "panel/menu_item.html", context, section="menu")


@panel_page(ANY_ROLE)
@require_POST
def group_save(request: PanelRequest, item_id: int, group_id: int | None = None) -> HttpResponseRedirect:
    """Add a modifier group to an item (no group_id) or edit/delete one."""
    owner_id = request.user.owner_id
    item = _or_404(menu_selectors.item_of_owner(owner_id=owner_id, item_id=item_id))
    group = ModifierGroup(item=item)
    if group_id is not None:
        group = _or_404(menu_selectors.group_of_owner(owner_id=owner_id, group_id=group_id, item_id=item.pk))
    return _entry_save(
        request,
        group,
        ModifierGroupForm(request.POST, catalog_language=item.category.catalog.language),
        lambda group, fields: menu_services.modifier_group_save(group=group, **fields),
        invalid=_("Check the group: a name, and 0 <= min <= max <= 50."),
        back=redirect("panel:menu_item", item_id=item.pk),
    )


@panel_page(ANY_ROLE)
@require_POST
def option_save(request: PanelRequest, group_id: int, option_id: int | None = None) -> HttpResponseRedirect:
    """Add an option to a modifier group (no option_id) or edit/delete one."""
    owner_id = request.user.owner_id
    group = _or_404(menu_selectors.group_of_owner(owner_id=owner_id, group_id=group_id))
    option = ModifierOption(group=group)
    if option_id is not None:
        option = _or_404(menu_selectors.option_of_owner(owner_id=owner_id, option_id=option_id, group_id=group.pk))
    return _entry_save(
        request,
        option,
        ModifierOptionForm(request.POST, catalog_language=group.item.category.catalog.language),
        lambda option, fields: menu_services.modifier_option_save(option=option, **fields),
        invalid=_("Give the option a name and a price of 0 or more."),
        back=redirect("panel:menu_item", item_id=group.item_id),
    )
