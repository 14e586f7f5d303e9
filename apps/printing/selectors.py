"""Reads of printers, always limited to an owner: another owner's printer is not found (404)."""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q, QuerySet
from django.utils import timezone

from apps.core.errors import DomainError, ErrorCode
from apps.menu.models import Category
from apps.printing.models import NOT_PRINTING, RECEIPT_ROLES, JobKind, JobStatus, Printer, PrintJob, PrintSettings


def printers_of_owner(owner_id: int) -> QuerySet[Printer]:
    """With `waiting`: how many tickets wait for each printer."""
    return (
        Printer.objects.filter(business__owner_id=owner_id)
        .select_related("business", "kiosk")
        .prefetch_related("categories")
        .annotate(waiting=Count("jobs", filter=Q(jobs__status=JobStatus.WAITING)))
    )


def printer_of_owner(*, owner_id: int, printer_id: int) -> Printer:
    printer = printers_of_owner(owner_id).filter(pk=printer_id).first()
    if printer is None:
        raise DomainError(ErrorCode.NOT_FOUND, "No such printer.")
    return printer


def printer_categories_of_owner(owner_id: int) -> QuerySet[Category]:
    """The menu categories a kitchen printer of the owner may print."""
    return (
        Category.objects.filter(catalog__business__owner_id=owner_id)
        .select_related("catalog__business")
        .order_by("catalog__business__name", "catalog__name", "sort_order", "pk")
    )


@dataclass(frozen=True)
class PrinterTrouble:
    printer_id: int
    name: str
    state: str
    waiting: int
    oldest_waiting_at: datetime | None


def printers_in_trouble(business_id: int) -> list[PrinterTrouble]:
    """The business's printers the kitchen must hear about: those that cannot print (offline, out
    of paper, open), and any with a ticket waiting longer than PRINT_TICKET_LATE_SECONDS."""
    late = timezone.now() - timedelta(seconds=settings.PRINT_TICKET_LATE_SECONDS)
    waiting = Q(jobs__status=JobStatus.WAITING)
    rows = (
        Printer.objects.filter(business_id=business_id)
        .annotate(waiting=Count("jobs", filter=waiting), oldest_waiting_at=Min("jobs__created_at", filter=waiting))
        .filter(Q(state__in=NOT_PRINTING) | Q(oldest_waiting_at__lt=late))
        .order_by("name", "pk")
        .values_list("pk", "name", "state", "waiting", "oldest_waiting_at")
    )
    return [PrinterTrouble(*row) for row in rows]


def jobs_of_order(*, owner_id: int, order_id: int) -> QuerySet[PrintJob]:
    """An order's tickets, oldest first, with their printers."""
    return PrintJob.objects.filter(order_id=order_id, printer__business__owner_id=owner_id).select_related("printer")


def job_of_owner(*, owner_id: int, job_id: int) -> PrintJob | None:
    return PrintJob.objects.filter(pk=job_id, printer__business__owner_id=owner_id).select_related("printer").first()


def kiosk_receipt_state(*, kiosk_id: int, order_id: int | None) -> tuple[bool, str | None]:
    """What the thank-you screen needs before offering "Print receipt": whether this kiosk has a
    receipt printer, and the order's receipt ticket so far (None before it is asked)."""
    printers = Printer.objects.filter(kiosk_id=kiosk_id, role__in=RECEIPT_ROLES)
    has_printer = printers.exists()
    if not has_printer or order_id is None:
        return has_printer, None
    status = (
        PrintJob.objects.filter(order_id=order_id, kind=JobKind.RECEIPT, printer__in=printers)
        .order_by("pk")
        .values_list("status", flat=True)
        .first()
    )
    return True, status


def prints_receipts_always(business_id: int) -> bool:
    """The owner set every receipt to print without the customer asking (off by default)."""
    return PrintSettings.objects.filter(business_id=business_id, print_receipts=True).exists()
