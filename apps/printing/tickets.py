"""What each ticket says, as blocks for escpos_io.render: the kitchen ticket of a paid order
(the lines of one printer's categories), its "CANCELLED" ticket, the customer's receipt and a
printer's test page. Words are the catalogues' (ticket_words, and the receipt's)."""

import zoneinfo
from collections.abc import Sequence

from apps.menu.models import Catalog
from apps.orders.models import Order, OrderLine
from apps.orders.receipt_words import language_of, words_in
from apps.orders.receipts import card_lines, receipt_context
from apps.printing.escpos_io import Block
from apps.printing.ticket_words import ticket_words_in


def business_language(business_id: int) -> str:
    """The business's own language: its active menu's (English without one, or one the
    catalogues do not have)."""
    language = (
        Catalog.objects.filter(business_id=business_id, is_active=True).values_list("language", flat=True).first()
    )
    return language_of(language or "en")


def _local_time(order: Order) -> str:
    when = order.paid_at or order.updated_at
    return when.astimezone(zoneinfo.ZoneInfo(order.business.timezone)).strftime("%H:%M")


def _dining(order: Order, language: str) -> str:
    words = words_in(language)
    return {"eat_in": words["eat_in"], "take_away": words["take_away"]}.get(order.dining, "")


def kitchen_ticket(order: Order, lines: Sequence[OrderLine]) -> list[Block]:
    """The number as large as the printer goes, eat in or take away, the time, then each line
    with its options and notes, in the words it was ordered with (the business's menu)."""
    language = business_language(order.business_id)
    note = ticket_words_in(language)["note"]
    blocks = [Block("title", f"#{order.number}")]
    dining = _dining(order, language)
    if dining:
        blocks.append(Block("big", dining))
    blocks += [Block("text", _local_time(order)), Block("rule")]
    for line in lines:
        blocks.append(Block("big", f"{line.quantity} x {line.name}"))
        blocks += [Block("text", f"  {modifier['group']}: {modifier['value']}") for modifier in line.modifiers]
        if line.notes:
            blocks.append(Block("bold", f"  {note}: {line.notes}"))
    blocks += [Block("rule"), Block("cut")]
    return blocks


def cancel_ticket(order: Order) -> list[Block]:
    words = ticket_words_in(business_language(order.business_id))
    return [Block("title", f"{words['cancelled']} #{order.number}"), Block("text", _local_time(order)), Block("cut")]


def receipt(order: Order, receipt_url: str) -> list[Block]:
    """What the receipt page shows, in the customer's language (orders.receipts.receipt_context),
    with a QR code to that page."""
    context = receipt_context(order)
    words = context["words"]
    blocks = [Block("title", context["business_name"])]
    blocks += [Block("center", line) for line in context["address_lines"]]
    blocks += [
        Block("center", f"{words['title']} · {words['order']} #{context['number']}"),
        Block("center", context["paid_at"]),
    ]
    if context["dining"]:
        blocks.append(Block("center", context["dining"]))
    blocks.append(Block("rule"))
    for line in context["lines"]:
        blocks.append(Block("text", f"{line['quantity']} x {line['name']}  {line['amount']}"))
        blocks += [Block("text", f"  {modifier}") for modifier in line["modifiers"]]
        if line["notes"]:
            blocks.append(Block("text", f"  {line['notes']}"))
    blocks += [
        Block("rule"),
        Block("text", f"{words['subtotal']}: {context['subtotal']}"),
        Block("text", f"{words['tax']}: {context['tax']}"),
        Block("bold", f"{words['total']}: {context['total']}"),
    ]
    blocks += [Block("text", line) for line in card_lines(context)]  # what a card-present receipt must carry
    if context["refunded"]:
        blocks.append(Block("bold", context["refunded_text"]))
    if receipt_url:
        blocks += [Block("feed"), Block("qr", receipt_url)]
    blocks += [Block("center", words["thanks"]), Block("cut")]
    return blocks


def test_page(business_name: str, printer_name: str, language: str) -> list[Block]:
    words = ticket_words_in(language)
    return [
        Block("title", words["test_page"]),
        Block("center", printer_name),
        Block("center", words["test_line"].format(business=business_name)),
        Block("cut"),
    ]


def banner(text: str) -> list[Block]:
    """Printed above a ticket sent again: "REPRINT", or "REPRINT?" when it may have printed."""
    return [Block("big", f"*** {text} ***")]


def plain_text(blocks: Sequence[Block]) -> str:
    """The ticket's words as a person reads them (PrintJob.text)."""
    return "\n".join(block.text for block in blocks if block.style not in ("qr", "cut", "feed", "rule"))
