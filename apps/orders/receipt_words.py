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
    refunded_amount: str
    card_ending: str
    thanks: str
    subject: str
    subject_refunded: str


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
        "refunded_amount": "Refunded {amount}",
        "card_ending": "{brand} ending {last4}",
        "thanks": "Thank you!",
        "subject": "Your receipt from {business}, order {number}",
        "subject_refunded": "Your updated receipt from {business}, order {number} (refunded)",
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
        "refunded_amount": "Reembolsado {amount}",
        "card_ending": "{brand} terminada en {last4}",
        "thanks": "¡Gracias!",
        "subject": "Tu recibo de {business}, pedido {number}",
        "subject_refunded": "Tu recibo actualizado de {business}, pedido {number} (reembolsado)",
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
        "refunded_amount": "Remboursé {amount}",
        "card_ending": "{brand} se terminant par {last4}",
        "thanks": "Merci !",
        "subject": "Votre reçu de {business}, commande {number}",
        "subject_refunded": "Votre reçu mis à jour de {business}, commande {number} (remboursée)",
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
        "refunded_amount": "Erstattet {amount}",
        "card_ending": "{brand} mit Endziffern {last4}",
        "thanks": "Vielen Dank!",
        "subject": "Ihr Beleg von {business}, Bestellung {number}",
        "subject_refunded": "Ihr aktualisierter Beleg von {business}, Bestellung {number} (erstattet)",
    },
}


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
    """ "es-MX" -> "es"; a language the catalogs lack -> "en"."""
    language = (locale or "").replace("_", "-").split("-")[0].lower()
    return language if language in WORDS else "en"
