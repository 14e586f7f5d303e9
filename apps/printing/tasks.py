"""Celery tasks for printing: one per ticket, a retry per printer, and the periodic sweep. Each
only calls runner.py, and each is safe to run any number of times: a ticket is claimed before it
is sent, so it goes out once (docs/decisions/printing.md)."""

from celery import shared_task

from apps.core import jobs
from apps.printing import runner
from apps.printing.models import PrintJob


def _drain_and_retry(printer_id: int, *, when_due: bool = False) -> None:
    retry_in = runner.drain(printer_id, when_due=when_due)
    if retry_in is not None:
        jobs.enqueue_later(drain_printer, retry_in, printer_id)


@shared_task(name="printing.print_ticket", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def print_ticket(job_id: int) -> None:
    """Print this ticket (and the ones waiting before it on its printer, first); on a printer
    waiting for its retry, the retry prints it."""
    printer_id = PrintJob.objects.filter(pk=job_id).values_list("printer_id", flat=True).first()
    if printer_id is not None:
        _drain_and_retry(printer_id, when_due=True)


@shared_task(name="printing.drain_printer", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def drain_printer(printer_id: int) -> None:
    """Try a printer again after it could not print."""
    _drain_and_retry(printer_id)


@shared_task(name="printing.sweep", ignore_result=True)  # type: ignore[untyped-decorator]  # celery is untyped
def sweep() -> None:
    """Every PRINT_SWEEP_SECONDS: tickets of a runner that died wait again, and every printer
    whose retry time has come is tried (a lost task or retry only delays its tickets)."""
    runner.recover_abandoned()
    for printer_id in runner.printers_due():
        jobs.enqueue(drain_printer, printer_id)
