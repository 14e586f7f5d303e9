"""Printed once, never lost: a printer that is offline, out of paper or open keeps its tickets
waiting and is tried again with a growing delay; when it is back they print in order, each once.
A ticket whose fate is unknown (dropped mid-ticket, its runner died) prints again under
"REPRINT?"; a reprint asked for is marked "REPRINT"."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.core.models import DomainEvent
from apps.orders.models import Order
from apps.printing import runner, services, tasks
from apps.printing.models import JobStatus, Printer, PrintJob
from apps.webhooks import services as webhook_services
from apps.webhooks.models import WebhookDelivery
from tests.printing.conftest import printer_at
from tests.support.fake_printer import COVER_OPEN, OFFLINE, ONLINE, PAPER_OUT, UNREACHABLE
from tests.support.orders import BASE, make_order


@pytest.fixture
def fire(business, django_capture_on_commit_callbacks):
    """Confirmed orders' kitchen tickets, as the paid order's event makes them, run on commit."""

    def fire(count: int = 1) -> list[Order]:
        orders = [make_order(business, created_at=BASE) for _ in range(count)]
        for order in orders:
            with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
                services.kitchen_tickets(order)
        return orders

    return fire


def retry_time_comes() -> None:
    Printer.objects.update(retry_at=timezone.now())


def numbers(tickets: list[str]) -> list[str]:
    return [ticket.splitlines()[0] for ticket in tickets]


@pytest.mark.parametrize(
    ("fault", "state"),
    [(OFFLINE, "offline"), (UNREACHABLE, "offline"), (PAPER_OUT, "paper_out"), (COVER_OPEN, "cover_open")],
)
def test_tickets_wait_while_the_printer_cannot_print_then_print_in_order_once(
    business, fire, fake_printers, fault, state, settings
):
    settings.PRINT_RETRY_SECONDS = 60
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = fault

    orders = fire(3)

    assert fake.tickets == []
    assert set(PrintJob.objects.values_list("status", flat=True)) == {JobStatus.WAITING}
    printer.refresh_from_db()
    assert (printer.state, printer.failures) == (state, 1)  # the later tickets wait for the planned retry
    assert printer.state_changed_at is not None and printer.retry_at > timezone.now()

    tasks.sweep()  # not due yet
    retry_time_comes()
    tasks.sweep()  # still at fault: tried again, still waiting
    printer.refresh_from_db()
    assert printer.failures == 2 and fake.tickets == []

    fake.state = ONLINE
    retry_time_comes()
    tasks.sweep()
    tasks.sweep()  # running again prints nothing twice
    for job in PrintJob.objects.all():
        tasks.print_ticket(job.pk)

    assert numbers(fake.wait_for_tickets(3)) == [f"#{order.number}" for order in orders]
    assert len(fake.tickets) == 3
    assert set(PrintJob.objects.values_list("status", "uncertain")) == {(JobStatus.PRINTED, False)}
    printer.refresh_from_db()
    assert (printer.state, printer.failures, printer.retry_at) == ("online", 0, None)


def test_the_retry_delay_doubles_up_to_its_ceiling(business, fire, fake_printers, settings):
    settings.PRINT_RETRY_SECONDS = 2
    settings.PRINT_RETRY_MAX_SECONDS = 5
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = OFFLINE
    fire(1)
    delays = []
    for _ in range(3):
        printer.refresh_from_db()
        delays.append(round((printer.retry_at - timezone.now()).total_seconds()))
        retry_time_comes()
        tasks.sweep()
    assert delays == [2, 4, 5]
    tasks.sweep()  # not due yet: not tried
    printer.refresh_from_db()
    assert printer.failures == 4


def test_a_ticket_dropped_mid_print_is_printed_again_whole_as_reprint_unsure(business, fire, fake_printers):
    fake = fake_printers()
    printer_at(fake, business)
    fake.drop_after = 20  # the connection drops 20 bytes into the ticket

    [order] = fire(1)
    job = PrintJob.objects.get()
    assert (job.status, job.uncertain) == (JobStatus.WAITING, True)
    assert fake.tickets == []

    tasks.sweep()

    [ticket] = fake.wait_for_tickets(1)
    assert ticket.splitlines()[:2] == ["*** REPRINT? ***", f"#{order.number}"]
    job.refresh_from_db()
    assert (job.status, job.attempts) == (JobStatus.PRINTED, 2)


def test_a_ticket_left_printing_by_a_runner_that_died_prints_again_as_reprint_unsure(business, fire, fake_printers):
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = OFFLINE
    [order] = fire(1)
    # What a runner killed mid-print leaves: the ticket claimed, the printer's lease running out.
    PrintJob.objects.update(status=JobStatus.PRINTING)
    Printer.objects.filter(pk=printer.pk).update(lease_token="dead", lease_until=timezone.now() - timedelta(seconds=1))
    fake.state = ONLINE

    assert runner.recover_abandoned() == 1
    tasks.sweep()

    [ticket] = fake.wait_for_tickets(1)
    assert numbers([ticket]) == ["*** REPRINT? ***"] and f"#{order.number}" in ticket
    assert PrintJob.objects.filter(uncertain=True, status=JobStatus.PRINTED).count() == 1


def test_a_ticket_being_printed_by_a_live_runner_is_left_to_it(business, fire, fake_printers):
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = OFFLINE
    fire(1)
    PrintJob.objects.update(status=JobStatus.PRINTING)
    Printer.objects.filter(pk=printer.pk).update(lease_token="live", lease_until=timezone.now() + timedelta(seconds=30))

    assert runner.recover_abandoned() == 0
    assert runner.drain(printer.pk) is None  # the lease is held: this runner stops
    assert PrintJob.objects.get().status == JobStatus.PRINTING


def test_a_reprint_is_a_new_ticket_marked_reprint(business, fire, fake_printers, django_capture_on_commit_callbacks):
    fake = fake_printers()
    printer_at(fake, business)
    [order] = fire(1)
    original = PrintJob.objects.get()

    with django_capture_on_commit_callbacks(execute=True):
        again = services.reprint(original)

    first, second = fake.wait_for_tickets(2)
    assert second.splitlines()[0] == "*** REPRINT ***"
    assert second.splitlines()[1:] == first.splitlines()
    assert (again.reprint, again.kind, again.order_id, again.status) == (True, "kitchen", order.pk, "waiting")
    assert PrintJob.objects.get(pk=again.pk).status == JobStatus.PRINTED
    assert again.text.startswith("*** REPRINT ***\n#")


def test_a_printer_that_answers_no_status_prints_when_it_takes_the_connection(business, fire, fake_printers):
    fake = fake_printers()
    printer_at(fake, business, reads_status=False)
    fire(1)
    assert len(fake.wait_for_tickets(1)) == 1
    assert fake.queries == 0


def test_a_printer_that_cannot_print_plans_its_own_retry(business, fire, fake_printers, settings, monkeypatch):
    settings.PRINT_RETRY_SECONDS = 3
    planned = []
    monkeypatch.setattr(
        "apps.core.jobs.enqueue_later", lambda task, delay, *args: planned.append((task.name, delay, args))
    )
    fake = fake_printers()
    printer = printer_at(fake, business)
    fake.state = PAPER_OUT

    fire(2)

    assert planned == [("printing.drain_printer", 3.0, (printer.pk,))]  # once: the second ticket waits for it


def test_the_owner_hears_when_a_printer_stops_and_starts_printing(business, fire, fake_printers):
    subscription, _ = webhook_services.subscription_create(
        owner=business.owner, url="https://hooks.example/x", events=["printer.offline", "printer.online"]
    )
    fake = fake_printers()
    printer = printer_at(fake, business, name="Bar")
    fire(1)  # a first ticket, printed: no event
    assert not DomainEvent.objects.filter(name__startswith="printer.").exists()

    fake.state = PAPER_OUT
    fire(2)
    retry_time_comes()
    tasks.sweep()  # still out of paper: told once
    fake.state = ONLINE
    retry_time_comes()
    tasks.sweep()

    offline, online = DomainEvent.objects.filter(name__startswith="printer.").order_by("pk")
    assert offline.name == "printer.offline" and offline.owner_id == business.owner_id
    assert offline.payload == {
        "printer_id": printer.pk,
        "printer_name": "Bar",
        "business_id": business.pk,
        "state": "paper_out",
        "waiting_tickets": 1,  # the first ticket found it out of paper; the second came after
        "offline_at": offline.payload["offline_at"],
    }
    assert offline.payload["offline_at"].endswith("Z")
    assert online.name == "printer.online" and online.payload["printer_id"] == printer.pk
    assert WebhookDelivery.objects.filter(subscription=subscription).count() == 2
    assert len(fake.tickets) == 3
