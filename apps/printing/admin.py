"""Super-admin: printers and their tickets, to look at. Tickets are made and printed by the
services and tasks (a ticket edited here would not be printed again)."""

from django.contrib import admin

from apps.core.admin_bases import FieldsReadOnlyAdmin
from apps.printing.models import Printer, PrintJob, PrintSettings


@admin.register(Printer)
class PrinterAdmin(admin.ModelAdmin[Printer]):
    list_display = ["name", "business", "host", "port", "role", "state", "last_printed_at"]
    list_filter = ["role", "state"]
    readonly_fields = ["state", "state_changed_at", "last_job", "last_printed_at", "failures", "retry_at"]
    exclude = ["lease_token", "lease_until"]


@admin.register(PrintJob)
class PrintJobAdmin(FieldsReadOnlyAdmin[PrintJob]):
    list_display = ["key", "printer", "kind", "status", "attempts", "reprint", "uncertain", "created_at", "printed_at"]
    list_filter = ["kind", "status", "reprint", "uncertain"]


@admin.register(PrintSettings)
class PrintSettingsAdmin(FieldsReadOnlyAdmin[PrintSettings]):
    """Read-only: owners set them on the panel's Printers page."""

    list_display = ["business", "print_receipts"]
