"""The receipt's words in the kiosk's four languages (en, es, fr, de): a small dict per language,
like the kiosk's own catalogs (static/kiosk/messages.js), so a receipt page or mail reads in the
language the customer chose on the kiosk. Any other language falls back to English."""

from typing import TypedDict


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
    thanks: str
    subject: str


WORDS: dict[str, ReceiptWords] = {
    "en": {
        "title": "Receipt",
        "order": "Order",
        "subtotal": "Subtotal",
        "tax": "Tax",
        "total": "Total",
        "paid_with": "Paid with",
        "eat_in": "Eat in",
        "take_away": "Take away",
        "refunded": "Refunded",
        "thanks": "Thank you!",
        "subject": "Your receipt from {business}, order {number}",
    },
    "es": {
        "title": "Recibo",
        "order": "Pedido",
        "subtotal": "Subtotal",
        "tax": "Impuestos",
        "total": "Total",
        "paid_with": "Pagado con",
        "eat_in": "Para comer aquí",
        "take_away": "Para llevar",
        "refunded": "Reembolsado",
        "thanks": "¡Gracias!",
        "subject": "Tu recibo de {business}, pedido {number}",
    },
    "fr": {
        "title": "Reçu",
        "order": "Commande",
        "subtotal": "Sous-total",
        "tax": "Taxes",
        "total": "Total",
        "paid_with": "Payé par",
        "eat_in": "Sur place",
        "take_away": "À emporter",
        "refunded": "Remboursé",
        "thanks": "Merci !",
        "subject": "Votre reçu de {business}, commande {number}",
    },
    "de": {
        "title": "Beleg",
        "order": "Bestellung",
        "subtotal": "Zwischensumme",
        "tax": "Steuer",
        "total": "Gesamt",
        "paid_with": "Bezahlt mit",
        "eat_in": "Hier essen",
        "take_away": "Zum Mitnehmen",
        "refunded": "Erstattet",
        "thanks": "Vielen Dank!",
        "subject": "Ihr Beleg von {business}, Bestellung {number}",
    },
}


def language_of(locale: str) -> str:
    """ "es-MX" -> "es"; a language the catalogs lack -> "en"."""
    language = (locale or "").replace("_", "-").split("-")[0].lower()
    return language if language in WORDS else "en"
