"""Kitchen tickets: printed on the business's kitchen printers when the order is paid, never
before; each printer gets the lines of its categories; a refund prints "CANCELLED #N"."""

import zoneinfo

from django.db import transaction

from apps.orders import fulfilment
from apps.orders.models import Order, OrderStatus
from apps.printing import services, tasks
from apps.printing.models import JobStatus, PrinterRole, PrintJob
from tests.printing.conftest import printer_at
from tests.support.fake_printer import OFFLINE, ONLINE


def test_a_paid_order_prints_its_kitchen_ticket(business, ordering, pay, fake_printers):
    fake = fake_printers()
    printer = printer_at(fake, business)

    order = pay(ordering)

    [ticket] = fake.wait_for_tickets(1)
    paid_at = order.paid_at.astimezone(zoneinfo.ZoneInfo(business.timezone)).strftime("%H:%M")
    assert ticket.splitlines() == [
        f"#{order.number}",
        "Take away",
        paid_at,
        "-" * 48,
        "1 x Burger",
        "  Doneness: Medium",
        "  Note: no onions",
        "2 x Cola",
        "-" * 48,
        "<cut>",
    ]
    job = PrintJob.objects.get()
    assert (job.status, job.attempts, job.kind, job.order_id) == (JobStatus.PRINTED, 1, "kitchen", order.pk)
    printer.refresh_from_db()
    assert (printer.state, printer.last_job_id, printer.last_printed_at) == ("online", job.pk, job.printed_at)


def test_each_kitchen_printer_gets_the_lines_of_its_categories(business, ordering, pay, menu, fake_printers):
    grill, bar = fake_printers(), fake_printers()
    printer_at(grill, business, name="Grill").categories.set([menu["grill"]])
    printer_at(bar, business, name="Bar", paper_width=58).categories.set([menu["drinks"]])
    printer_at(fake_printers(), business, name="Front", role=PrinterRole.RECEIPT)  # not a kitchen printer

    pay(ordering)

    [grill_ticket] = grill.wait_for_tickets(1)
    [bar_ticket] = bar.wait_for_tickets(1)
    assert "1 x Burger" in grill_ticket and "Cola" not in grill_ticket
    assert "2 x Cola" in bar_ticket and "Burger" not in bar_ticket
    assert "-" * 32 + "\n" in bar_ticket and "-" * 33 not in bar_ticket  # 58 mm paper: 32 columns
    assert PrintJob.objects.count() == 2


def test_no_ticket_is_printed_before_the_payment_is_captured(business, ordering, pay, fake_printers, kiosk_events):
    fake = fake_printers()
    printer_at(fake, business)

    pay.send_to_payment(ordering)

    assert Order.objects.get(session=ordering).status == OrderStatus.AWAITING_PAYMENT
    assert not PrintJob.objects.exists()
    assert fake.connections == []

    pay.succeed(ordering)
    assert len(fake.wait_for_tickets(1)) == 1


def test_the_ticket_speaks_the_businesss_language_not_the_customers(business, ordering, pay, menu, fake_printers):
    fake = fake_printers()
    printer_at(fake, business)
    menu["grill"].catalog.__class__.objects.filter(business=business).update(language="de")
    ordering.customer_locale = "es-ES"
    ordering.save(update_fields=["customer_locale"])

    pay(ordering)

    [ticket] = fake.wait_for_tickets(1)
    assert "Zum Mitnehmen" in ticket and "Hinweis: no onions" in ticket


def test_a_ticket_asked_for_twice_is_printed_once(
    business, ordering, pay, fake_printers, django_capture_on_commit_callbacks
):
    fake = fake_printers()
    printer_at(fake, business)
    order = pay(ordering)
    fake.wait_for_tickets(1)

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        again = services.kitchen_tickets(order)

    assert [job.pk for job in again] == list(PrintJob.objects.values_list("pk", flat=True))
    assert len(fake.tickets) == 1


def test_a_refund_prints_cancelled_where_the_ticket_printed_and_withdraws_it_where_it_waits(
    business, ordering, pay, menu, fake_printers, django_capture_on_commit_callbacks
):
    grill, bar = fake_printers(), fake_printers()
    printer_at(grill, business, name="Grill").categories.set([menu["grill"]])
    bar_printer = printer_at(bar, business, name="Bar")
    bar_printer.categories.set([menu["drinks"]])
    bar.state = OFFLINE
    order = pay(ordering)
    grill.wait_for_tickets(1)
    assert PrintJob.objects.get(printer=bar_printer).status == JobStatus.WAITING

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        fulfilment.move(Order.objects.select_for_update().get(pk=order.pk), OrderStatus.REFUNDED)

    tickets = grill.wait_for_tickets(2)
    assert tickets[1].splitlines()[0] == f"CANCELLED #{order.number}"
    assert PrintJob.objects.get(printer=bar_printer).status == JobStatus.WITHDRAWN
    bar.state = ONLINE
    tasks.sweep()
    assert bar.tickets == []  # neither the withdrawn ticket nor a "CANCELLED" for a ticket never printed


def test_a_ticket_that_cannot_be_made_never_undoes_the_payment(business, ordering, pay, fake_printers, monkeypatch):
    printer_at(fake_printers(), business)

    def broken(*args, **kwargs):
        raise RuntimeError("the renderer failed")

    monkeypatch.setattr("apps.printing.escpos_io.render", broken)

    order = pay(ordering)

    assert order.status == OrderStatus.CONFIRMED
    assert not PrintJob.objects.exists()
