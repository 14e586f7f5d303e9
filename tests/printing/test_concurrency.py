"""Printed once and in order when runners race: several runners (a ticket's task, a retry, the
sweep) draining one printer at once print each waiting ticket once, in the order made; in the
embedded mode a printer that comes back gets its tickets from its own planned retry."""

import pytest
from django.db import transaction

from apps.printing import runner, services, tasks
from apps.printing.models import JobStatus, PrintJob
from tests import factories
from tests.printing.conftest import printer_at
from tests.support.fake_printer import OFFLINE, ONLINE
from tests.support.orders import BASE, make_order
from tests.support.private_servers import wait_until
from tests.support.races import at_once


def _tickets(business, count: int) -> list[str]:
    numbers = []
    for _ in range(count):
        order = make_order(business, created_at=BASE)
        with transaction.atomic():
            services.kitchen_tickets(order)
        numbers.append(f"#{order.number}")
    return numbers


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_runners_racing_on_one_printer_print_each_ticket_once_in_order(fake_printers):
    business = factories.BusinessFactory()
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = OFFLINE
    numbers = _tickets(business, 12)
    assert fake.tickets == []
    fake.state = ONLINE
    job_ids = list(PrintJob.objects.values_list("pk", flat=True))

    results = at_once(
        [lambda: runner.drain(printer.pk)] * 3
        + [tasks.sweep]
        + [lambda job_id=job_id: tasks.print_ticket(job_id) for job_id in job_ids[:4]]
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    printed = fake.wait_for_tickets(12)
    assert [ticket.splitlines()[0] for ticket in printed] == numbers
    assert set(PrintJob.objects.values_list("status", "attempts", "uncertain")) == {(JobStatus.PRINTED, 1, False)}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_in_the_embedded_mode_a_printer_back_prints_from_its_planned_retry(fake_printers, settings):
    settings.TASK_MODE = "thread"
    settings.PRINT_RETRY_SECONDS = 0.2
    settings.PRINT_RETRY_MAX_SECONDS = 0.4
    business = factories.BusinessFactory()
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = OFFLINE

    [number] = _tickets(business, 1)  # its task runs on the jobs' pool after commit
    wait_until(
        lambda: PrintJob.objects.get().attempts == 0 and printer.__class__.objects.get().failures >= 2, 5, "retries"
    )
    fake.state = ONLINE

    [ticket] = fake.wait_for_tickets(1, timeout=5)
    assert ticket.splitlines()[0] == number
    wait_until(lambda: PrintJob.objects.get().status == JobStatus.PRINTED, 5, "the ticket recorded printed")
