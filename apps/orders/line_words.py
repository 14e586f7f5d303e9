"""An order's lines in the customer's words: each line's item name and its modifiers (group and
option names) as the menu translates them into the session's language now. A line keeps the words
it was ordered with (the catalog's) where no translation exists or its item or option is gone,
so a half-translated menu still reads whole. Two queries per call, whatever the number of lines."""

from collections.abc import Sequence
from typing import Any, TypedDict

from apps.menu.models import MenuItem, ModifierOption
from apps.menu.translations import translated
from apps.orders.models import OrderLine


class ModifierWords(TypedDict):
    group: str
    value: str


class LineWords(TypedDict):
    name: str
    modifiers: list[ModifierWords]


def primary_language(locale: str) -> str:
    """ "es-MX" -> "es" (the menu keeps translations by primary subtag)."""
    return (locale or "").replace("_", "-").split("-", 1)[0].lower()


def lines_in_language(lines: Sequence[OrderLine], language: str) -> dict[int, LineWords]:
    """For each line's id, its words in `language` (the ordered words where none is translated)."""
    item_ids = {line.menu_item_id for line in lines if line.menu_item_id}
    option_ids = {m["option_id"] for line in lines for m in line.modifiers if m.get("option_id")}
    items = {item.pk: item for item in MenuItem.objects.filter(pk__in=item_ids).only("name", "translations")}
    options = {
        option.pk: option
        for option in ModifierOption.objects.filter(pk__in=option_ids)
        .select_related("group")
        .only("name", "translations", "group__name", "group__translations")
    }
    return {line.pk: _line_words(line, items, options, language) for line in lines}


def _line_words(
    line: OrderLine, items: dict[int, MenuItem], options: dict[int, ModifierOption], language: str
) -> LineWords:
    item = items.get(line.menu_item_id) if line.menu_item_id else None
    return {
        "name": translated(item, "name", language) if item else line.name,
        "modifiers": [_modifier_words(m, options.get(m.get("option_id")), language) for m in line.modifiers],
    }


def _modifier_words(modifier: dict[str, Any], option: ModifierOption | None, language: str) -> ModifierWords:
    if option is None:
        return {"group": modifier["group"], "value": modifier["value"]}
    return {"group": translated(option.group, "name", language), "value": translated(option, "name", language)}
