"""The receipt's words, from the gettext catalogues (locale/<language>/LC_MESSAGES/django.po:
English msgids in the "receipt" context), in the kiosk's four languages (en, es, fr, de), so a
receipt page or mail reads in the language the customer chose on the kiosk. Any other language
falls back to English. `makemessages -d django` finds them here (pgettext_lazy)."""

from typing import TypedDict, cast

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from apps.core.locales import words_said_in

# The languages a receipt speaks (the kiosk's: static/kiosk/messages.js LANGUAGES).
LANGUAGES = ("en", "es", "fr", "de")


class ReceiptWords(TypedDict):
    title: str
    order: str
    subtotal: str
    tax: str
    total: str
    paid_with: str
    eat_in: str
    take_away: str
    refunded: str
    refunded_amount: str
    card_ending: str
    card_read: str
    read_contactless: str
    read_chip: str
    read_swipe: str
    card_application: str
    thanks: str
    subject: str
    subject_refunded: str


# Each word by its name in ReceiptWords; {placeholders} are filled by receipts.py (str.format).
MESSAGES: dict[str, Promise] = {
    "title": pgettext_lazy("receipt", "Receipt"),
    "order": pgettext_lazy("receipt", "Order"),
    "subtotal": pgettext_lazy("receipt", "Subtotal"),
    "tax": pgettext_lazy("receipt", "Tax"),
    "total": pgettext_lazy("receipt", "Total"),
    "paid_with": pgettext_lazy("receipt", "Paid with"),
    "eat_in": pgettext_lazy("receipt", "Eat in"),
    "take_away": pgettext_lazy("receipt", "Take away"),
    "refunded": pgettext_lazy("receipt", "Refunded"),
    "refunded_amount": pgettext_lazy("receipt", "Refunded {amount}"),
    "card_ending": pgettext_lazy("receipt", "{brand} ending {last4}"),
    # A card read by the kiosk's reader: how it was read, and a chip's application (name, AID).
    "card_read": pgettext_lazy("receipt", "Card read"),
    "read_contactless": pgettext_lazy("receipt", "Contactless"),
    "read_chip": pgettext_lazy("receipt", "Chip"),
    "read_swipe": pgettext_lazy("receipt", "Swipe"),
    "card_application": pgettext_lazy("receipt", "Card application"),
    "thanks": pgettext_lazy("receipt", "Thank you!"),
    "subject": pgettext_lazy("receipt", "Your receipt from {business}, order {number}"),
    "subject_refunded": pgettext_lazy("receipt", "Your updated receipt from {business}, order {number} (refunded)"),
}


def words_in(language: str) -> ReceiptWords:
    """Every receipt word in `language` (one of LANGUAGES), read from its catalogue."""
    return cast(ReceiptWords, words_said_in(language, MESSAGES))  # MESSAGES has ReceiptWords' names (tests/i18n)


# The processor's card brands as a receipt names them; another brand is shown capitalised.
BRAND_NAMES = {
    "visa": "Visa",
    "mastercard": "Mastercard",
    "amex": "American Express",
    "discover": "Discover",
    "diners": "Diners Club",
    "jcb": "JCB",
    "unionpay": "UnionPay",
}


def brand_name(brand: str) -> str:
    return BRAND_NAMES.get(brand, brand.replace("_", " ").title())


def language_of(locale: str) -> str:
    """ "es-MX" -> "es"; a language the catalogues lack -> "en"."""
    language = (locale or "").replace("_", "-").split("-")[0].lower()
    return language if language in LANGUAGES else "en"
