"""Receipts: a paid order's receipt page at an unguessable address served
without sign-in (/r/<token>, the token issued with the payment in fulfilment.fire), and the same
receipt mailed as text and HTML on the customer's request from the kiosk, by a worker job.

The receipt speaks the customer's language (the session's customer_locale: en, es, fr or de,
else English) and gives the date and time in the business's time zone. The address typed on the
kiosk travels in the job's arguments only; it is kept on the order after sending only when the
business's order settings say so (the panel's Displays page; default off), and then a refund
mails the updated receipt to it. The receipt names the card that paid ("Visa ending 4242") when
the processor said it, and the business's address when the owner set one."""

import base64
import hashlib
import zoneinfo
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db.models import Sum
from django.template.loader import render_to_string
from django.utils.crypto import constant_time_compare as compare_digest
from django.utils.crypto import salted_hmac

from apps.orders.line_words import lines_in_language, primary_language
from apps.orders.models import CHARGED_STATUSES, Order, OrderStatus
from apps.orders.receipt_words import ReceiptWords, brand_name, language_of, words_in
from apps.orders.selectors import order_settings_of


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _token(order: Order) -> str:
    """The order's receipt token: an HMAC of its id under the server's SECRET_KEY (43 URL-safe
    characters). The database keeps only its SHA-256, as it does for display and device tokens;
    unlike theirs, this address is given more than once (the kiosk reads `receipt_url` after each
    reload of its thank-you screen), so it is derived again rather than kept."""
    digest = salted_hmac(_TOKEN_SALT, str(order.pk), algorithm="sha256").digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


_TOKEN_SALT = "apps.orders.receipts.token"


def token_hash_for(order: Order) -> str:
    """What fulfilment.fire stores when the payment is captured."""
    return hash_token(_token(order))


def receipt_path(order: Order) -> str | None:
    """The receipt page's path once the order is paid, else None (also when its address cannot be
    given again: a token issued under an earlier SECRET_KEY, or stored before tokens were derived,
    still opens the page at the address given then)."""
    if order.status not in CHARGED_STATUSES or not order.receipt_token_hash:
        return None
    token = _token(order)
    if not compare_digest(hash_token(token), order.receipt_token_hash):
        return None
    return f"/r/{token}"


def order_for_receipt(token: str) -> Order | None:
    """The paid order with this receipt token (with its business and session), else None."""
    if not token or len(token) > 64:
        return None
    return (
        Order.objects.select_related("business", "session")
        .prefetch_related("lines")
        .filter(receipt_token_hash=hash_token(token), status__in=CHARGED_STATUSES)
        .first()
    )


def _money(cents: int, currency: str) -> str:
    return f"{(Decimal(cents) / 100).quantize(Decimal('0.01')):,} {currency}"


# The processor's read methods by the word a receipt says (a tap, an inserted chip, a swipe).
READ_WORDS = {
    "contactless_emv": "read_contactless",
    "contactless_magstripe_mode": "read_contactless",
    "contact_emv": "read_chip",
    "magnetic_stripe_track2": "read_swipe",
    "magnetic_stripe_fallback": "read_swipe",
}


def _card(order: Order, words: ReceiptWords) -> dict[str, str]:
    """How the succeeded payment paid, when the processor said the card: `paid_with` ("Visa
    ending 4242"), and for a card read by the kiosk's reader `card_read` (contactless, chip,
    swipe) and `card_application` (a chip's application name and AID); "" for what is unknown.
    (Read through the reverse relation: billing builds on orders, never the other way.)"""
    card = (
        order.payments.filter(status="succeeded")
        .exclude(card_last4="")
        .order_by("-succeeded_at")
        .values("card_brand", "card_last4", "card_read_method", "card_application_name", "card_application_id")
        .first()
    )
    if card is None:
        return {"paid_with": "", "card_read": "", "card_application": ""}
    read_word = READ_WORDS.get(card["card_read_method"])
    name, aid = card["card_application_name"], card["card_application_id"]
    application = f"{name} (AID {aid})" if name and aid else name or (f"AID {aid}" if aid else "")
    return {
        "paid_with": words["card_ending"].format(brand=brand_name(card["card_brand"]), last4=card["card_last4"]),
        "card_read": words[read_word] if read_word else "",  # type: ignore[literal-required]
        "card_application": application,
    }


CARD_KEYS = ("paid_with", "card_read", "card_application")


def card_lines(context: dict[str, Any]) -> list[str]:
    """The receipt's card lines ("Paid with: Visa ending 4242", "Card read: Contactless", ...) from
    a receipt_context, for the printed ticket and the kiosk's thank-you screen."""
    return [f"{context['words'][key]}: {context[key]}" for key in CARD_KEYS if context[key]]


def _refunded_cents(order: Order) -> int:
    total: int | None = order.refunds.aggregate(total=Sum("amount_cents"))["total"]
    return total or 0


def receipt_context(order: Order) -> dict[str, Any]:
    """Everything the receipt templates (page, text mail, HTML mail) show, in the customer's words."""
    language = language_of(order.session.customer_locale)
    words = words_in(language)
    business = order.business
    paid_at = (order.paid_at or order.updated_at).astimezone(zoneinfo.ZoneInfo(business.timezone))
    dining = {"eat_in": words["eat_in"], "take_away": words["take_away"]}.get(order.dining, "")
    stored = list(order.lines.all())
    theirs = lines_in_language(stored, primary_language(order.session.customer_locale))  # the menu's words
    lines = [
        {
            "quantity": line.quantity,
            "name": theirs[line.pk]["name"],
            "modifiers": [f"{m['group']}: {m['value']}" for m in theirs[line.pk]["modifiers"]],
            "notes": line.notes,
            "amount": _money(line.quantity * line.unit_price_cents, order.currency),
        }
        for line in stored
    ]
    refunded_cents = _refunded_cents(order)
    refunded = order.status == OrderStatus.REFUNDED or refunded_cents > 0
    return {
        "language": language,
        "words": words,
        "business_name": business.name,
        "address_lines": [line for line in business.address.splitlines() if line.strip()],
        "number": order.number,
        "paid_at": paid_at.strftime("%Y-%m-%d %H:%M"),
        "time_zone": business.timezone,
        "dining": dining,
        "lines": lines,
        "subtotal": _money(order.subtotal_cents, order.currency),
        "tax": _money(order.tax_cents, order.currency),
        "total": _money(order.total_cents, order.currency),
        **_card(order, words),
        "refunded": refunded,
        "refunded_text": words["refunded_amount"].format(amount=_money(refunded_cents, order.currency))
        if refunded_cents
        else words["refunded"],
    }


def receipt_send(order_id: int, email: str) -> bool:
    """Mail the receipt (text and HTML); False when the order has no receipt (any more)."""
    order = Order.objects.select_related("business", "session").filter(pk=order_id).first()
    if order is None or receipt_path(order) is None:
        return False
    context = receipt_context(order)
    subject_key = "subject_refunded" if context["refunded"] else "subject"
    subject = context["words"][subject_key].format(business=order.business.name, number=order.number)
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string("receipts/receipt_email.txt", context),
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[email],
    )
    message.attach_alternative(render_to_string("receipts/receipt_email.html", context), "text/html")
    message.send()
    if order_settings_of(order.business_id).keep_receipt_email:
        Order.objects.filter(pk=order.pk).update(receipt_email=email)
    return True
