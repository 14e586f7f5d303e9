"""Menu translations. Each category, item, modifier group and option keeps its own words in its
fields (in its catalog's language) and the other languages in `translations`:
{"es": {"name": "...", "description": "..."}}. A missing or blank translation falls back to the
entry's own words, so a half-translated menu still reads whole."""

from typing import Any, Protocol

from django.core.exceptions import ValidationError

from apps.menu.labels import LANGUAGES

TRANSLATABLE_FIELDS = {"name": 200, "description": 2000}  # field -> longest text
Translations = dict[str, dict[str, str]]  # {language: {field: text}}


class Translatable(Protocol):
    """A menu entry with its own words and their translations (a JSONField)."""

    translations: Any


def translated(entry: Translatable, field: str, language: str | None) -> str:
    """`entry.field` in `language`, or in the catalog's own language when not translated."""
    if language:
        text: str = (entry.translations or {}).get(language, {}).get(field, "")
        if text and text.strip():
            return text
    own: str = getattr(entry, field)  # a text field of the entry (name, description)
    return own


def validate_translations(value: object, *, fields: tuple[str, ...]) -> None:
    """A model validator: {language: {field: text}} with known languages, fields and lengths."""
    if not isinstance(value, dict):
        raise ValidationError("Translations are an object of languages.")
    for language, words in value.items():
        if language not in LANGUAGES:
            raise ValidationError(f"Unknown language {language!r}: one of {', '.join(LANGUAGES)}.")
        if not isinstance(words, dict):
            raise ValidationError(f"Translations in {language!r} are an object of fields.")
        for field, text in words.items():
            if field not in fields:
                raise ValidationError(f"{field!r} cannot be translated here: one of {', '.join(fields)}.")
            if not isinstance(text, str) or len(text) > TRANSLATABLE_FIELDS[field]:
                raise ValidationError(f"The {language} {field} must be text of at most {TRANSLATABLE_FIELDS[field]}.")


def name_translations(value: object) -> None:
    validate_translations(value, fields=("name",))


def item_translations(value: object) -> None:
    validate_translations(value, fields=("name", "description"))


def translations_from(words_by_language: Translations) -> Translations:
    """Drop blank words and empty languages, so 'not translated' has one form."""
    cleaned: Translations = {}
    for language, words in words_by_language.items():
        kept = {field: text.strip() for field, text in words.items() if text and text.strip()}
        if kept:
            cleaned[language] = kept
    return cleaned
