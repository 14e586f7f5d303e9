"""The one pattern of a locale tag a client sends (the kiosk's customer_locale, the menu's
?locale=): a 2-3 letter language, then subtags (es, es-MX, zh_Hant_TW), at most 35 characters."""

import re
from collections.abc import Mapping

from django.utils import translation
from django.utils.functional import Promise

LOCALE_PATTERN = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")
LOCALE_MAX_LENGTH = 35


def words_said_in(language: str, messages: Mapping[str, Promise]) -> dict[str, str]:
    """Each of `messages` (lazy gettext words, by name) as `language`'s catalogue says it."""
    with translation.override(language):
        return {name: str(message) for name, message in messages.items()}
