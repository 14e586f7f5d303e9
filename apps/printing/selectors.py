"""Reads of printers, always limited to an owner: another owner's printer is not found (404)."""

from django.db.models import Count, Q, QuerySet

from apps.core.errors import DomainError, ErrorCode
from apps.menu.models import Category
from apps.printing.models import JobStatus, Printer


def printers_of_owner(owner_id: int) -> QuerySet[Printer]:
    """With `waiting`: how many tickets wait for each printer."""
    return (
        Printer.objects.filter(business__owner_id=owner_id)
        .select_related("business")
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
