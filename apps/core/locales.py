"""The one pattern of a locale tag a client sends (the kiosk's customer_locale, the menu's
?locale=): a 2-3 letter language, then subtags (es, es-MX, zh_Hant_TW), at most 35 characters."""

import re

LOCALE_PATTERN = re.compile(r"^[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*$")
LOCALE_MAX_LENGTH = 35
