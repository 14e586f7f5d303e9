"""Sending tickets to a printer, once each and in order (the tasks in tasks.py call this).

One runner at a time holds a printer's lease (a short UPDATE on its row, so it works on SQLite
and PostgreSQL alike and a dead runner lets go when the lease runs out). Holding it, the runner
opens one connection and, for each waiting ticket in the order they were made: asks the printer's
status, claims the ticket (waiting -> printing: one runner wins), sends its bytes, asks the status
again and records it printed. A printer that is offline, out of paper or open keeps its tickets
waiting and is tried again later (the delay doubles from PRINT_RETRY_SECONDS up to
PRINT_RETRY_MAX_SECONDS). A ticket whose fate is unknown (the connection dropped while it was
sent, or the status after it was not fine, or its runner died) is sent again under a
"REPRINT?" banner: the one duplicate allowed, counted by `uncertain`."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from apps.core import events
from apps.printing import escpos_io, tickets
from apps.printing.domain_events import PrinterCameOnline, PrinterWentOffline
from apps.printing.models import JobStatus, Printer, PrinterState, PrintJob
from apps.printing.ticket_words import ticket_words_in


def _lease_span() -> timedelta:
    return timedelta(seconds=settings.PRINTER_LEASE_SECONDS)


def _take_lease(printer_id: int) -> str | None:
    token = secrets.token_hex(8)
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    taken = Printer.objects.filter(free, pk=printer_id).update(lease_token=token, lease_until=now + _lease_span())
    return token if taken else None


def _renew_lease(printer_id: int, token: str) -> bool:
    until = timezone.now() + _lease_span()
    return bool(Printer.objects.filter(pk=printer_id, lease_token=token).update(lease_until=until))


def _release_lease(printer_id: int, token: str) -> None:
    Printer.objects.filter(pk=printer_id, lease_token=token).update(lease_token="", lease_until=None)


def _waiting(printer_id: int) -> PrintJob | None:
    return PrintJob.objects.filter(printer_id=printer_id, status=JobStatus.WAITING).order_by("created_at", "pk").first()


def _set_state(printer: Printer, state: str, **fields: object) -> None:
    """Record what the printer said. Crossing between printing and not printing is an event
    (printer.offline, printer.online; the first answer of a new printer, if fine, is not)."""
    with transaction.atomic():
        row = Printer.objects.select_for_update().select_related("business").get(pk=printer.pk)
        now = timezone.now()
        if row.state != state:
            fields["state_changed_at"] = now
        Printer.objects.filter(pk=printer.pk).update(state=state, **fields)
        was_printing = row.state in (PrinterState.ONLINE, PrinterState.UNKNOWN)
        if was_printing and state != PrinterState.ONLINE:
            waiting = PrintJob.objects.filter(printer_id=printer.pk, status=JobStatus.WAITING).count()
            events.emit(PrinterWentOffline(row, at=now, state=state, waiting_tickets=waiting))
        elif not was_printing and state == PrinterState.ONLINE:
            events.emit(PrinterCameOnline(row, at=now))
    printer.state = state


def _cannot_print(printer: Printer, state: str) -> float:
    """The printer said it cannot print (or could not be reached): when to try again."""
    failures = printer.failures + 1
    delay = min(settings.PRINT_RETRY_MAX_SECONDS, settings.PRINT_RETRY_SECONDS * 2 ** (failures - 1))
    _set_state(printer, state, failures=failures, retry_at=timezone.now() + timedelta(seconds=delay))
    printer.failures = failures
    return float(delay)


def _status(connection: escpos_io.Connection, printer: Printer) -> str:
    return connection.status() if printer.reads_status else PrinterState.ONLINE


def _bytes_of(job: PrintJob) -> bytes:
    if not job.uncertain:
        return bytes(job.content)
    words = ticket_words_in(tickets.business_language(job.printer.business_id))
    return escpos_io.render(tickets.banner(words["reprint_unsure"]), paper_width_mm=job.printer.paper_width) + bytes(
        job.content
    )


def _put_back(job: PrintJob, error: str) -> None:
    """Its fate is unknown: it waits again, to go out under "REPRINT?"."""
    PrintJob.objects.filter(pk=job.pk, status=JobStatus.PRINTING).update(
        status=JobStatus.WAITING, uncertain=True, last_error=error[:200]
    )


def _print_waiting(printer: Printer, token: str) -> float | None:
    """Print the printer's waiting tickets in order, holding its lease. Returns the delay before
    trying again when the printer cannot print, else None."""
    try:
        connection = escpos_io.connect(printer.host, printer.port, settings.PRINTER_TIMEOUT_SECONDS)
    except escpos_io.PrinterGone:
        return _cannot_print(printer, PrinterState.OFFLINE)
    with connection:
        while (job := _waiting(printer.pk)) is not None:
            if not _renew_lease(printer.pk, token):
                return None  # lost the lease (it ran out): the runner holding it now goes on
            try:
                before = _status(connection, printer)
            except escpos_io.PrinterGone:
                return _cannot_print(printer, PrinterState.OFFLINE)
            if before != PrinterState.ONLINE:
                return _cannot_print(printer, before)
            claimed = PrintJob.objects.filter(pk=job.pk, status=JobStatus.WAITING).update(
                status=JobStatus.PRINTING, attempts=F("attempts") + 1, claimed_at=timezone.now()
            )
            if not claimed:
                continue  # withdrawn meanwhile
            job.printer = printer
            try:
                connection.send(_bytes_of(job))
                after = _status(connection, printer)
            except escpos_io.PrinterGone as error:
                _put_back(job, str(error))
                return _cannot_print(printer, PrinterState.OFFLINE)
            if after != PrinterState.ONLINE:
                _put_back(job, f"printer {after} after the ticket")
                return _cannot_print(printer, after)
            now = timezone.now()
            PrintJob.objects.filter(pk=job.pk).update(status=JobStatus.PRINTED, printed_at=now, last_error="")
            _set_state(printer, PrinterState.ONLINE, failures=0, retry_at=None, last_job=job.pk, last_printed_at=now)
            printer.failures = 0
    if printer.state != PrinterState.ONLINE or printer.failures:
        _set_state(printer, PrinterState.ONLINE, failures=0, retry_at=None)
    return None


def drain(printer_id: int, *, when_due: bool = False) -> float | None:
    """Print what waits for this printer, unless another runner is at it (that one looks for
    new tickets after letting go, so none is left behind). Returns the delay before trying
    again when the printer cannot print now. `when_due`: not before the printer's retry time (a
    new ticket for a printer known to be down waits for the retry already planned)."""
    if when_due and Printer.objects.filter(pk=printer_id, retry_at__gt=timezone.now()).exists():
        return None
    while True:
        token = _take_lease(printer_id)
        if token is None:
            return None
        try:
            printer = Printer.objects.filter(pk=printer_id).first()
            retry = None if printer is None else _print_waiting(printer, token)
        finally:
            _release_lease(printer_id, token)
        if retry is not None or _waiting(printer_id) is None:
            return retry
        # A ticket came while this runner held the lease: its own run found the lease taken.


def recover_abandoned() -> int:
    """Tickets left "printing" by a runner that died (its printer's lease has run out) wait again,
    as uncertain: the printer may have taken them. Returns how many."""
    now = timezone.now()
    live = Printer.objects.filter(lease_until__gte=now).values("pk")
    return (
        PrintJob.objects.filter(status=JobStatus.PRINTING)
        .exclude(printer_id__in=live)
        .update(status=JobStatus.WAITING, uncertain=True, last_error="its runner stopped mid-print")
    )


def printers_due() -> list[int]:
    """Printers with waiting tickets whose retry time has come."""
    now = timezone.now()
    return list(
        PrintJob.objects.filter(status=JobStatus.WAITING)
        .filter(Q(printer__retry_at__isnull=True) | Q(printer__retry_at__lte=now))
        .order_by()
        .values_list("printer_id", flat=True)
        .distinct()
    )
