"""seed_demo's menus: a demo business gets its menu (apps/demo/menus.py) with photos stored like
uploads; a demo catalog made by an earlier seed_demo (before translations and photos) gets what
it lacks, entry by entry matched on names, so `make run` on an old var/ shows the same demo."""

import copy
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

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


_Entry = TypeVar("_Entry", Category, MenuItem, ModifierGroup, ModifierOption)


def _matched(entries: Iterable[_Entry], specs: list[Spec]) -> Iterator[tuple[_Entry, Spec]]:
    """Each spec with the stored entry of its name; a spec whose entry is gone (deleted or
    renamed by the owner) is skipped."""
    by_name = {entry.name: entry for entry in entries}
    for spec in specs:
        entry = by_name.get(spec["name"])
        if entry is not None:
            yield entry, spec


def _missing_languages(
    entry: Category | MenuItem | ModifierGroup | ModifierOption, spec: Spec
) -> dict[str, dict[str, str]] | None:
    """The entry's translations with the languages of `spec` it lacks added (None: none lacking)."""
    have = entry.translations or {}
    wanted = {**spec.get("translations", {}), **have}
    return wanted if wanted != have else None


def _complete(catalog: Catalog, spec: Spec) -> None:
    for category, category_spec in _matched(catalog.categories.all(), spec["categories"]):
        if (translations := _missing_languages(category, category_spec)) is not None:
            menu_services.category_save(category=category, translations=translations)
        for item, item_spec in _matched(category.items.all(), category_spec["items"]):
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
    for group, group_spec in _matched(item.modifier_groups.all(), item_spec.get("modifier_groups", [])):
        if (translations := _missing_languages(group, group_spec)) is not None:
            menu_services.modifier_group_save(group=group, translations=translations)
        for option, option_spec in _matched(group.options.all(), group_spec.get("options", [])):
            if (translations := _missing_languages(option, option_spec)) is not None:
                menu_services.modifier_option_save(option=option, translations=translations)
