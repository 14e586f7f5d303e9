"""The kitchen ticket's own words, from the gettext catalogues (locale/<language>/LC_MESSAGES/
django.po, English msgids in the "ticket" context), in the four languages a receipt speaks. A
kitchen ticket reads in the business's language (its active menu's), whatever the customer chose;
eat in and take away are the receipt's words (apps.orders.receipt_words)."""

from typing import TypedDict, cast

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from apps.core.locales import words_said_in


class TicketWords(TypedDict):
    cancelled: str
    reprint: str
    reprint_unsure: str
    note: str
    test_page: str
    test_line: str


MESSAGES: dict[str, Promise] = {
    "cancelled": pgettext_lazy("ticket", "CANCELLED"),
    "reprint": pgettext_lazy("ticket", "REPRINT"),
    # Sent again after its runner stopped mid-print: it may have printed before.
    "reprint_unsure": pgettext_lazy("ticket", "REPRINT?"),
    "note": pgettext_lazy("ticket", "Note"),
    "test_page": pgettext_lazy("ticket", "Test page"),
    "test_line": pgettext_lazy("ticket", "This printer prints for {business}."),
}


def ticket_words_in(language: str) -> TicketWords:
    return cast(TicketWords, words_said_in(language, MESSAGES))
