"""The kitchen display hears of printers in trouble: one that cannot print, with the tickets
waiting for it, comes with the tickets and as PrintersChanged on the kitchen channel (when it
stops, when it is back, and with each paid order while it is down); a ticket waiting longer than
PRINT_TICKET_LATE_SECONDS names its printer even when the printer says it is fine. The kitchen
reprints a ticket on the printers that printed it, marked REPRINT."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from apps.printing import services, tasks
from apps.printing.models import Printer, PrinterState, PrintJob
from tests.support.fake_printer import OFFLINE, ONLINE, FakePrinter
from tests.support.orders import BASE, make_order


@pytest.fixture
def fake():
    printer = FakePrinter()
    yield printer
    printer.close()


@pytest.fixture
def bar(business, fake, settings):
    settings.PRINT_RETRY_SECONDS = 0
    return Printer.objects.create(business=business, name="Bar", host=fake.host, port=fake.port)


def alerts_sent(broadcasts) -> list:
    return [data["printers"] for channels, event, data in broadcasts if event == "PrintersChanged"]


@pytest.fixture
def bar_down(bar):
    """The bar printer, known to be down (it failed before this test's order)."""
    Printer.objects.filter(pk=bar.pk).update(state=PrinterState.OFFLINE)
    return bar


def test_a_paid_order_while_the_printer_is_down_tells_the_kitchen_one_more_waits(
    bar_down, display_broadcasts, confirmed_order, kitchen
):
    expected = {"id": str(bar_down.pk), "name": "Bar", "state": "offline", "waiting": 1}
    [sent] = alerts_sent(display_broadcasts)  # with the order's TicketChanged
    assert [{k: row[k] for k in expected} for row in sent] == [expected]
    [row] = kitchen.get("/api/displays/kitchen/tickets").json()["printers"]
    assert {k: row[k] for k in expected} == expected and row["oldest_waiting_at"].endswith("Z")


def test_a_paid_order_says_nothing_of_printers_that_print(bar, display_broadcasts, confirmed_order, kitchen):
    assert alerts_sent(display_broadcasts) == []
    assert kitchen.get("/api/displays/kitchen/tickets").json()["printers"] == []


def test_the_kitchen_hears_when_a_printer_stops_and_comes_back(
    business, bar, fake, display_broadcasts, django_capture_on_commit_callbacks, kitchen
):
    fake.state = OFFLINE
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        services.kitchen_tickets(make_order(business, created_at=BASE))
    [stopped] = alerts_sent(display_broadcasts)
    assert [(p["name"], p["state"], p["waiting"]) for p in stopped] == [("Bar", "offline", 1)]

    fake.state = ONLINE
    tasks.sweep()
    assert alerts_sent(display_broadcasts)[-1] == []
    assert len(fake.wait_for_tickets(1)) == 1
    assert kitchen.get("/api/displays/kitchen/tickets").json()["printers"] == []


def test_a_ticket_waiting_too_long_names_its_printer_and_the_screen_knows_the_limit(business, bar, kitchen, settings):
    settings.PRINT_TICKET_LATE_SECONDS = 120
    order = make_order(business, created_at=BASE)
    PrintJob.objects.create(
        printer=bar,
        order=order,
        kind="kitchen",
        key="kitchen:x",
        content=b"",
        created_at=timezone.now() - timedelta(minutes=3),
    )
    Printer.objects.filter(pk=bar.pk).update(state=PrinterState.ONLINE)
    [row] = kitchen.get("/api/displays/kitchen/tickets").json()["printers"]
    assert (row["name"], row["state"], row["waiting"]) == ("Bar", "online", 1)
    assert kitchen.get("/api/displays/me").json()["settings"]["print_late_seconds"] == 120


def test_the_kitchen_reprints_a_ticket_on_the_printers_that_printed_it(
    business, bar, fake, kitchen, django_capture_on_commit_callbacks, other_business
):
    order = make_order(business, created_at=BASE)
    path = f"/api/displays/kitchen/tickets/{order.pk}/reprint"
    error = kitchen.post(path, {}, content_type="application/json")
    assert error.status_code == 409 and error.json()["error"]["code"] == "INVALID_STATE"  # nothing printed yet

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        services.kitchen_tickets(order)
    with django_capture_on_commit_callbacks(execute=True):
        response = kitchen.post(path, {}, content_type="application/json")
    assert response.status_code == 202 and response.json() == {"reprinted": 1}

    first, again = fake.wait_for_tickets(2)
    assert again.splitlines()[0] == "*** REPRINT ***" and again.splitlines()[1:] == first.splitlines()
    theirs = make_order(other_business, created_at=BASE)
    missing = kitchen.post(f"/api/displays/kitchen/tickets/{theirs.pk}/reprint", {}, content_type="application/json")
    assert missing.status_code == 404
