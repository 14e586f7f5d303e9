"""Owner API printers (printers:write): the owner's network ticket printers, read and write, with
their state and the tickets waiting for them, and a test page. Another owner's printer is 404."""

import secrets
from typing import Any

from drf_spectacular.utils import inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from apps.api.fields import StrictBooleanField, StrictCharField
from apps.api.operations import NO_CONTENT, Answer, Data
from apps.core.errors import DomainError, ErrorCode
from apps.owner_api import selectors as owner_selectors
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, enveloped, owner_operation
from apps.owner_api.api.kiosks import BusinessRefOut
from apps.owner_api.scopes import Scope
from apps.printing import selectors, services
from apps.printing.models import PRINTER_ROLES, PaperWidth, Printer, PrinterRole, PrinterState, PrintJob


class PrinterOut(serializers.Serializer[Printer]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    business = BusinessRefOut()
    host = serializers.CharField()
    port = serializers.IntegerField()
    paper_width = serializers.ChoiceField(choices=PaperWidth.values, help_text="Millimetres.")
    role = serializers.ChoiceField(choices=PRINTER_ROLES)
    category_ids = serializers.SerializerMethodField(help_text="Kitchen: the menu categories it prints (empty: all).")
    kiosk_id = serializers.IntegerField(allow_null=True, help_text="Receipt: the kiosk whose receipts it prints.")
    reads_status = serializers.BooleanField(help_text="False: it answers no status query; reachable is online.")
    state = serializers.ChoiceField(choices=PrinterState.values, help_text="As it said when last asked.")
    state_changed_at = serializers.DateTimeField(allow_null=True)
    last_printed_at = serializers.DateTimeField(allow_null=True, help_text="When its last ticket printed.")
    waiting = serializers.IntegerField(help_text="Tickets waiting for it (it could not print them yet).")

    def get_category_ids(self, printer: Printer) -> list[int]:
        return sorted(category.pk for category in printer.categories.all())


class PrinterIn(serializers.Serializer[None]):
    name = StrictCharField(max_length=100)
    host = StrictCharField(max_length=255, help_text="IP address or host name.")
    port = serializers.IntegerField(min_value=1, max_value=65535, default=9100)
    paper_width = serializers.ChoiceField(choices=PaperWidth.values, default=PaperWidth.MM80)
    role = serializers.ChoiceField(choices=PRINTER_ROLES, default=PrinterRole.KITCHEN)
    category_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=200, default=list)
    kiosk_id = serializers.IntegerField(min_value=1, allow_null=True, default=None)
    reads_status = StrictBooleanField(default=True)


class PrinterCreateIn(PrinterIn):
    business_id = serializers.IntegerField(min_value=1)


class PrinterPatchIn(PrinterIn):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class PrintersQueryIn(serializers.Serializer[None]):
    business = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False, help_text="Page size (default 50).")
    cursor = serializers.CharField(required=False, max_length=500, help_text="Opaque; taken from `next`/`previous`.")


class PrintersPage(CursorPagination):
    ordering = ("pk",)
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200

    def decode_cursor(self, request: Request) -> Cursor | None:
        """A cursor that is not ours is the client's bad input (422 details.cursor), as for orders."""
        if not request.query_params.get(self.cursor_query_param):
            return None
        try:
            cursor = super().decode_cursor(request)
        except NotFound:  # DRF's answer to a cursor it cannot decode
            cursor = None
        if cursor is None or not str(cursor.position or "0").isdigit():
            raise DomainError(
                ErrorCode.VALIDATION_ERROR,
                "This cursor is invalid.",
                details={"cursor": ["This cursor is invalid; start again without it or follow `next`."]},
            )
        return cursor


class JobOut(serializers.Serializer[PrintJob]):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


def _printer(request: OwnerApiRequest, printer_id: int) -> Printer:
    return selectors.printer_of_owner(owner_id=request.user.owner_id, printer_id=printer_id)


PRINTER = enveloped("OwnerPrinter", PrinterOut())
PRINTER_PAGE = Answer(
    inline_serializer(
        "OwnerPrinterPage",
        {
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": PrinterOut(many=True),
        },
    )
)


class PrinterListView(OwnerAPIView):
    @owner_operation(Scope.PRINTERS_WRITE, PRINTER_PAGE, query=PrintersQueryIn, operation_id="api_owner_printers_list")
    def get(self, request: OwnerApiRequest, query: Data) -> Response:
        """The owner's printers, oldest first (cursor pagination: follow `next`)"""
        printers = selectors.printers_of_owner(request.user.owner_id)
        if "business" in query:
            printers = printers.filter(business_id=query["business"])
        paginator = PrintersPage()
        page = paginator.paginate_queryset(printers, request, view=self)
        return paginator.get_paginated_response(PrinterOut(page, many=True).data)  # type: ignore[arg-type]  # the stubs take one instance

    @owner_operation(Scope.PRINTERS_WRITE, PRINTER.with_status(201), body=PrinterCreateIn)
    def post(self, request: OwnerApiRequest, data: Data) -> Printer:
        """Add a network printer (ESC/POS over raw TCP) to a business

        Kitchen printers print the lines of `category_ids` (all, if empty); receipt printers print
        the receipts of `kiosk_id`. Categories or a kiosk of another business are 422; another
        owner's business is 404."""
        business = owner_selectors.owned_business(owner_id=request.user.owner_id, business_id=data.pop("business_id"))
        printer = services.printer_create(business=business, fields=data)
        return _printer(request, printer.pk)


class PrinterDetailView(OwnerAPIView):
    @owner_operation(Scope.PRINTERS_WRITE, PRINTER)
    def get(self, request: OwnerApiRequest, printer_id: int) -> Printer:
        """A printer, with its state and waiting tickets"""
        return _printer(request, printer_id)

    @owner_operation(Scope.PRINTERS_WRITE, PRINTER, body=PrinterPatchIn)
    def patch(self, request: OwnerApiRequest, data: Data, printer_id: int) -> Printer:
        """Change a printer; a new address is tried at once with its waiting tickets"""
        services.printer_update(printer=_printer(request, printer_id), fields=data)
        return _printer(request, printer_id)

    @owner_operation(Scope.PRINTERS_WRITE, NO_CONTENT)
    def delete(self, request: OwnerApiRequest, printer_id: int) -> None:
        """Remove a printer (its waiting tickets will not print)"""
        services.printer_delete(printer=_printer(request, printer_id))


class PrinterTestPageView(OwnerAPIView):
    @owner_operation(Scope.PRINTERS_WRITE, enveloped("OwnerPrintJob", JobOut(), 202))
    def post(self, request: OwnerApiRequest, printer_id: int) -> PrintJob:
        """Print a test page (queued: it prints when the printer can)"""
        return services.print_test_page(_printer(request, printer_id), request_key=secrets.token_hex(8))
