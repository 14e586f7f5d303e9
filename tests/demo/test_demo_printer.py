"""The demo printer of `make run` (apps/demo/demo_printer.py): a raw TCP listener that answers
status queries as an online printer, takes tickets sent by the real printing path and shows
their words at /demo-printer/, newest first. `make run` starts it only in the local mode with the
default address."""

import pytest
from django.db import transaction
from django.test import Client

from apps.demo import demo_printer
from apps.printing import services
from apps.printing.models import JobStatus, Printer, PrinterRole, PrintJob


@pytest.fixture
def listener():
    demo_printer.tickets.clear()
    server = demo_printer.start("127.0.0.1:0")
    assert server is not None
    yield server
    server.shutdown()
    server.server_close()
    demo_printer.tickets.clear()


def test_a_ticket_printed_by_the_service_shows_its_words_on_the_page(
    listener, business, settings, django_capture_on_commit_callbacks
):
    settings.PRINTER_TIMEOUT_SECONDS = 2
    host, port = listener.server_address[:2]
    for name in ("Grill line", "Bar counter"):  # two printers at the one demo printer, one after the other
        printer = Printer.objects.create(business=business, name=name, host=host, port=port, role=PrinterRole.KITCHEN)
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            services.print_test_page(printer, request_key="first")
        demo_printer.tickets.wait_for(1, timeout=10)

    [newest, older] = demo_printer.tickets.wait_for(2, timeout=10)
    assert "Bar counter" in newest.text and "Grill line" in older.text
    assert PrintJob.objects.filter(status=JobStatus.PRINTED).count() == 2  # the status queries were answered
    assert set(Printer.objects.values_list("state", flat=True)) == {"online"}
    page = Client().get("/demo-printer/")
    assert page.status_code == 200
    body = page.content.decode()
    assert "Demo printer" in body and body.count('class="ticket"') == 2
    assert body.index("Bar counter") < body.index("Grill line")  # newest first


def test_the_page_says_when_nothing_was_printed_yet_and_where_it_listens(client, settings):
    demo_printer.tickets.clear()
    body = client.get("/demo-printer/").content.decode()
    assert "No tickets yet" in body and settings.DEMO_PRINTER_ADDRESS in body


def test_make_run_serves_it_in_the_local_mode_with_the_default_address_only(settings):
    assert settings.DEMO_PRINTER_SERVED is False  # tests (APP_ENV=test) never listen by themselves
    assert demo_printer.start_demo_printer() is None
