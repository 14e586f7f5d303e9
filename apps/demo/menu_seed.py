"""seed_demo's menus: a demo business gets its menu (apps/demo/menus.py) with photos stored like
uploads; a demo catalog made by an earlier seed_demo (before translations and photos) gets what
it lacks, entry by entry matched on names, so `make run` on an old var/ shows the same demo."""

import copy
from typing import Any

from apps.accounts.models import Business
from apps.demo.menus import Spec
from apps.demo.photos import demo_photo
from apps.menu import photos
from apps.menu import services as menu_services
from apps.menu.models import Catalog, Category, MenuItem, ModifierGroup, ModifierOption


def _stored_photo(key: str) -> str:
    """The drawing stored through the upload path (checked, re-encoded, stored): its name."""
    return photos.photo_save(photos.photo_prepare(demo_photo(key)))


def _with_photos(spec: Spec) -> Spec:
    spec = copy.deepcopy(spec)
    for category in spec["categories"]:
        for item in category["items"]:
            key = item.pop("photo_key", None)
            if key:
                item["photo"] = _stored_photo(key)
    return spec


def seed_menu(*, business: Business) -> None:
    from apps.demo.menus import DEMO_MENUS

    spec = DEMO_MENUS[business.name]
    catalog = Catalog.objects.filter(business=business, is_active=True).first()
    if catalog is None:
        menu_services.catalog_import(business=business, spec=_with_photos(spec))
    elif catalog.name == spec["name"]:
        _complete(catalog, spec)


def _missing_languages(
    entry: Category | MenuItem | ModifierGroup | ModifierOption, spec: Spec
) -> dict[str, dict[str, str]] | None:
    """The entry's translations with the languages of `spec` it lacks added (None: none lacking)."""
    have = entry.translations or {}
    wanted = {**spec.get("translations", {}), **have}
    return wanted if wanted != have else None


def _complete(catalog: Catalog, spec: Spec) -> None:
    categories = {category.name: category for category in catalog.categories.all()}
    for category_spec in spec["categories"]:
        category = categories.get(category_spec["name"])
        if category is None:
            continue
        if (translations := _missing_languages(category, category_spec)) is not None:
            menu_services.category_save(category=category, translations=translations)
        items = {item.name: item for item in category.items.all()}
        for item_spec in category_spec["items"]:
            item = items.get(item_spec["name"])
            if item is not None:
                _complete_item(item, item_spec)


def _complete_item(item: MenuItem, item_spec: Spec) -> None:
    changes: dict[str, Any] = {}
    if (translations := _missing_languages(item, item_spec)) is not None:
        changes["translations"] = translations
    for field in ("allergens", "dietary"):
        if not getattr(item, field) and item_spec.get(field):
            changes[field] = item_spec[field]
    if not item.photo and item_spec.get("photo_key"):
        changes["photo"] = _stored_photo(item_spec["photo_key"])
    if changes:
        menu_services.menu_item_save(item=item, **changes)
    groups = {group.name: group for group in item.modifier_groups.all()}
    for group_spec in item_spec.get("modifier_groups", []):
        group = groups.get(group_spec["name"])
        if group is None:
            continue
        if (translations := _missing_languages(group, group_spec)) is not None:
            menu_services.modifier_group_save(group=group, translations=translations)
        options = {option.name: option for option in group.options.all()}
        for option_spec in group_spec.get("options", []):
            option = options.get(option_spec["name"])
            if option is not None and (translations := _missing_languages(option, option_spec)) is not None:
                menu_services.modifier_option_save(option=option, translations=translations)
