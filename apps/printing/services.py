"""What is printed, and when: kitchen tickets when a paid order is confirmed (never before), a
"CANCELLED" ticket when a printed order is refunded, receipts, reprints and test pages. Each
ticket is one PrintJob row, rendered now and keyed so asking twice finds it; its task is queued
when the change commits (tasks.print_ticket), so a rollback prints nothing."""

import logging
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from apps.accounts.models import Business
from apps.core import jobs
from apps.core.errors import DomainError, ErrorCode
from apps.core.events import Event
from apps.core.models import DomainEvent
from apps.kiosks.models import Kiosk
from apps.menu.models import Category
from apps.orders.domain_events import OrderCreated, OrderStatusChanged
from apps.orders.models import CHARGED_STATUSES, Order, OrderLine, OrderStatus, is_paid
from apps.printing import escpos_io, tasks, tickets
from apps.printing.models import KITCHEN_ROLES, RECEIPT_ROLES, JobKind, JobStatus, Printer, PrintJob, PrintSettings
from apps.printing.ticket_words import ticket_words_in
from apps.sessions import selectors as session_selectors

logger = logging.getLogger(__name__)


def _ticket(
    printer: Printer,
    *,
    key: str,
    kind: str,
    blocks: Sequence[escpos_io.Block] = (),
    order: Order | None = None,
    content: bytes = b"",
    text: str = "",
    reprint: bool = False,
) -> PrintJob:
    """The job with this key: made (and queued on commit) the first time, found after. Its
    bytes are `blocks` rendered for the printer's paper, or `content` as given."""
    if blocks:
        content, text = escpos_io.render(blocks, paper_width_mm=printer.paper_width), tickets.plain_text(blocks)
    with transaction.atomic():
        job, created = PrintJob.objects.get_or_create(
            key=key,
            defaults={
                "printer": printer,
                "order": order,
                "kind": kind,
                "content": content,
                "text": text,
                "reprint": reprint,
            },
        )
        if created:
            jobs.enqueue_on_commit(tasks.print_ticket, job.pk)
    return job


def _lines_for(printer: Printer, lines: Sequence[OrderLine]) -> list[OrderLine]:
    """A kitchen printer's lines: those of its categories (all, if it has none). A line whose
    item is gone since is printed everywhere: better twice than not at all."""
    categories = {category.pk for category in printer.categories.all()}
    if not categories:
        return list(lines)
    return [line for line in lines if line.menu_item is None or line.menu_item.category_id in categories]


def kitchen_tickets(order: Order) -> list[PrintJob]:
    """Each kitchen printer of the business gets the order's lines of its categories."""
    if not is_paid(order.status):
        raise ValueError("a kitchen ticket is printed for a paid order only")
    lines = list(order.lines.select_related("menu_item").order_by("position"))
    printers = Printer.objects.filter(business_id=order.business_id, role__in=KITCHEN_ROLES).prefetch_related(
        "categories"
    )
    made = []
    for printer in printers:
        mine = _lines_for(printer, lines)
        if mine:
            blocks = tickets.kitchen_ticket(order, mine)
            key = f"kitchen:{order.pk}:{printer.pk}"
            made.append(_ticket(printer, key=key, kind=JobKind.KITCHEN, blocks=blocks, order=order))
    return made


def cancel_tickets(order: Order) -> list[PrintJob]:
    """The order was refunded: its kitchen tickets still waiting are withdrawn, and each printer
    that printed one (or is printing it now) prints "CANCELLED #42"."""
    kitchen = PrintJob.objects.filter(order=order, kind=JobKind.KITCHEN)
    kitchen.filter(status=JobStatus.WAITING).update(status=JobStatus.WITHDRAWN)
    printed_on = kitchen.filter(status__in=(JobStatus.PRINTING, JobStatus.PRINTED)).values("printer_id")
    made = []
    for printer in Printer.objects.filter(pk__in=printed_on):
        key = f"cancel:{order.pk}:{printer.pk}"
        made.append(_ticket(printer, key=key, kind=JobKind.CANCEL, blocks=tickets.cancel_ticket(order), order=order))
    return made


# Subscribers (config/event_subscribers.py), called inside the transaction of the change. A
# ticket that cannot be made is logged and left: it never undoes the payment or refund it follows
# (its own savepoint is rolled back; the kitchen display still shows the order).


def order_confirmed(event: Event, recorded: DomainEvent | None = None) -> None:
    """OrderCreated: the payment was captured and the order fired to the kitchen."""
    assert isinstance(event, OrderCreated)
    try:
        with transaction.atomic():
            kitchen_tickets(event.order)
    except Exception:
        logger.exception("no kitchen ticket for order %s", event.order.pk)


def order_moved(event: Event, recorded: DomainEvent | None = None) -> None:
    assert isinstance(event, OrderStatusChanged)
    if event.order.status != OrderStatus.REFUNDED:
        return
    try:
        with transaction.atomic():
            cancel_tickets(event.order)
    except Exception:
        logger.exception("no cancelled ticket for order %s", event.order.pk)


def receipt_printer(order: Order) -> Printer | None:
    """The receipt printer of the kiosk the order was made at."""
    return (
        Printer.objects.filter(business_id=order.business_id, role__in=RECEIPT_ROLES, kiosk_id=order.session.kiosk_id)
        .order_by("pk")
        .first()
    )


def print_receipt(order: Order, *, receipt_url: str) -> PrintJob | None:
    """The customer's receipt on their kiosk's receipt printer, once per order (asked again, the
    same job is answered); None when the order has no receipt or the kiosk no printer."""
    if order.status not in CHARGED_STATUSES:
        return None
    printer = receipt_printer(order)
    if printer is None:
        return None
    blocks = tickets.receipt(order, receipt_url)
    return _ticket(printer, key=f"receipt:{order.pk}:{printer.pk}", kind=JobKind.RECEIPT, blocks=blocks, order=order)


def reprint(job: PrintJob) -> PrintJob:
    """The same ticket again, under a "REPRINT" banner; one more each time it is asked."""
    printer = job.printer
    words = ticket_words_in(tickets.business_language(printer.business_id))
    count = PrintJob.objects.filter(key__startswith=f"reprint:{job.pk}:").count()
    banner = tickets.banner(words["reprint"])
    return _ticket(
        printer,
        key=f"reprint:{job.pk}:{count + 1}",
        kind=job.kind,
        order=job.order,
        content=escpos_io.render(banner, paper_width_mm=printer.paper_width) + bytes(job.content),
        text=f"{tickets.plain_text(banner)}\n{job.text}",
        reprint=True,
    )


def reprint_kitchen_tickets(order: Order) -> list[PrintJob]:
    """The order's kitchen tickets again, under "REPRINT", on each printer that printed one (its
    first ticket there, not an earlier reprint)."""
    printed = PrintJob.objects.filter(order=order, kind=JobKind.KITCHEN, reprint=False, status=JobStatus.PRINTED)
    return [reprint(job) for job in printed.select_related("printer").order_by("pk")]


def print_test_page(printer: Printer, *, request_key: str) -> PrintJob:
    language = tickets.business_language(printer.business_id)
    blocks = tickets.test_page(printer.business.name, printer.name, language)
    return _ticket(printer, key=f"test:{printer.pk}:{request_key}", kind=JobKind.TEST, blocks=blocks)


# The owner's printers (owner API; the panel's page to come).


def _checked(business: Business, fields: dict[str, Any]) -> dict[str, Any]:
    """The categories must be of the business's menus and the kiosk one of its kiosks; a printer
    with no kitchen role keeps no categories, one with no receipt role no kiosk."""
    errors: dict[str, list[str]] = {}
    category_ids = fields.get("category_ids")
    if category_ids is not None:
        found = set(
            Category.objects.filter(pk__in=category_ids, catalog__business=business).values_list("pk", flat=True)
        )
        if found != set(category_ids):
            errors["category_ids"] = ["Each category must be one of this business's menu categories."]
    kiosk_id = fields.get("kiosk_id")
    if kiosk_id is not None and not Kiosk.objects.filter(pk=kiosk_id, business=business).exists():
        errors["kiosk_id"] = ["The kiosk must be one of this business's kiosks."]
    if errors:
        raise DomainError(ErrorCode.VALIDATION_ERROR, "Some fields are not valid.", details=errors)
    return fields


def _apply(printer: Printer, fields: dict[str, Any]) -> Printer:
    for name in ("name", "host", "port", "paper_width", "role", "reads_status", "kiosk_id"):
        if name in fields:
            setattr(printer, name, fields[name])
    if printer.role not in RECEIPT_ROLES:
        printer.kiosk_id = None
    printer.save()
    if printer.role not in KITCHEN_ROLES:
        printer.categories.clear()
    elif "category_ids" in fields:
        printer.categories.set(fields["category_ids"])
    return printer


def printer_create(*, business: Business, fields: dict[str, Any]) -> Printer:
    with transaction.atomic():
        return _apply(Printer(business=business), _checked(business, fields))


def printer_update(*, printer: Printer, fields: dict[str, Any]) -> Printer:
    """A changed address is tried at once with the tickets waiting for it."""
    with transaction.atomic():
        printer = Printer.objects.select_for_update().get(pk=printer.pk)
        moved = any(name in fields and fields[name] != getattr(printer, name) for name in ("host", "port"))
        printer = _apply(printer, _checked(printer.business, fields))
        if moved:
            Printer.objects.filter(pk=printer.pk).update(retry_at=None, failures=0)
            jobs.enqueue_on_commit(tasks.drain_printer, printer.pk)
    return printer


def printer_delete(*, printer: Printer) -> None:
    """Its tickets go with it (a ticket waiting for it will not print)."""
    printer.delete()


def kiosk_receipt_print(*, kiosk: Kiosk, session_public_id: str, receipt_url: str) -> PrintJob:
    """The customer pressed "Print receipt" on the thank-you screen: the paid order's receipt on
    this kiosk's receipt printer, printed once however often it is asked."""
    order = _kiosk_paid_order(kiosk=kiosk, session_public_id=session_public_id)
    job = print_receipt(order, receipt_url=receipt_url)
    if job is None:
        raise DomainError(ErrorCode.INVALID_STATE, "This kiosk has no receipt printer.")
    return job


def _kiosk_paid_order(*, kiosk: Kiosk, session_public_id: str) -> Order:
    session = session_selectors.session_for_kiosk(kiosk=kiosk, public_id=session_public_id)
    order = Order.objects.filter(session=session).first()
    if order is None or order.status not in CHARGED_STATUSES:
        raise DomainError(ErrorCode.INVALID_STATE, "The order is not paid yet: it has no receipt.")
    return order


def print_settings_update(*, business: Business, print_receipts: bool) -> PrintSettings:
    settings, _ = PrintSettings.objects.update_or_create(business=business, defaults={"print_receipts": print_receipts})
    return settings
