"""The demo card numbers (docs/kiosk-and-agent.md lists them for the kiosk's demo card form)."""

import re

from apps.demo_processor.errors import DemoError

SUCCEEDS = "4242424242424242"
DECLINED = "4000000000000002"
INSUFFICIENT_FUNDS = "4000000000009995"
PROCESSING_ERROR = "4000000000000119"  # a passing fault: the same card may be tried again

# card number -> None (the payment succeeds) or the error the processor answers with.
OUTCOMES: dict[str, dict[str, str] | None] = {
    SUCCEEDS: None,
    DECLINED: {"code": "card_declined", "decline_code": "generic_decline", "message": "Your card was declined."},
    INSUFFICIENT_FUNDS: {
        "code": "card_declined",
        "decline_code": "insufficient_funds",
        "message": "Your card has insufficient funds.",
    },
    PROCESSING_ERROR: {
        "code": "processing_error",
        "message": "An error occurred while processing your card. Try again in a little bit.",
    },
}

_SEPARATORS = re.compile(r"[ -]")

# The processor's brand names by the card number's first digits (the demo cards are all Visa).
_BRANDS = (("34", "amex"), ("37", "amex"), ("4", "visa"), ("5", "mastercard"), ("6", "discover"))


def brand_of(digits: str) -> str:
    return next((brand for prefix, brand in _BRANDS if digits.startswith(prefix)), "unknown")


def normalised(raw: object) -> str:
    """The digits of a card number typed with spaces or dashes; a DemoError (422) otherwise."""
    digits = _SEPARATORS.sub("", raw) if isinstance(raw, str) and len(raw) <= 40 else ""
    if not (digits.isascii() and digits.isdigit() and 12 <= len(digits) <= 19 and _luhn_ok(digits)):
        raise DemoError(
            422, "invalid_request_error", "Your card number is incorrect.", code="incorrect_number", param="card_number"
        )
    if digits not in OUTCOMES:
        raise DemoError(
            422,
            "invalid_request_error",
            "This is the demo processor: use a demo card, e.g. 4242 4242 4242 4242 (succeeds) "
            "or 4000 0000 0000 0002 (declined).",
            code="demo_card_required",
            param="card_number",
        )
    return digits


def _luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char) * (2 if index % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0
