"""The panel's Printers page (owners and managers): add a printer with its categories, see its
state and waiting tickets, print a test page that reaches the printer, change it, remove it; an
order's page lists its tickets and reprints one, marked REPRINT."""

import pytest
from django.db import transaction

from apps.printing import services
from apps.printing.models import Printer, PrintJob, PrintSettings
from tests import factories
from tests.support.fake_printer import OFFLINE, FakePrinter
from tests.support.orders import BASE, make_order


@pytest.fixture
def fake():
    printer = FakePrinter()
    yield printer
    printer.close()


def form(business, fake, **fields):
    return {
        "business": business.pk,
        "name": "Grill",
        "host": fake.host,
        "port": fake.port,
        "paper_width": 80,
        "role": "kitchen",
        "reads_status": "on",
        **fields,
    }


def test_a_manager_adds_a_kitchen_printer_and_prints_a_test_page(
    manager_client, business, fake, django_capture_on_commit_callbacks
):
    grill = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business), name="Burgers")
    response = manager_client.post("/panel/printers", form(business, fake, categories=[grill.pk]), follow=True)
    assert response.status_code == 200
    printer = Printer.objects.get()
    assert (printer.name, printer.port, list(printer.categories.all())) == ("Grill", fake.port, [grill])
    assert "Printer “Grill” added." in response.content.decode()

    with django_capture_on_commit_callbacks(execute=True):
        manager_client.post(f"/panel/printers/{printer.pk}/test-page")

    [page] = fake.wait_for_tickets(1)
    assert page.splitlines()[:2] == ["Test page", "Grill"]
    html = manager_client.get("/panel/printers").content.decode()
    assert "Burgers" in html and f"{fake.host}:{fake.port}" in html and ">Online</span>" in html


def test_the_page_shows_a_printer_that_cannot_print_with_its_waiting_tickets(
    owner_client, business, fake, django_capture_on_commit_callbacks
):
    fake.state = OFFLINE
    printer = Printer.objects.create(business=business, name="Bar", host=fake.host, port=fake.port)
    with django_capture_on_commit_callbacks(execute=True):
        owner_client.post(f"/panel/printers/{printer.pk}/test-page")
        owner_client.post(f"/panel/printers/{printer.pk}/test-page")

    html = owner_client.get("/panel/printers").content.decode()
    row = html[html.index(f'data-printer-id="{printer.pk}"') :]
    assert '<span class="badge bad">Offline</span>' in row
    assert '<td class="printer-waiting">2</td>' in row
    assert "2 tickets waiting" in owner_client.get(f"/panel/printers/{printer.pk}").content.decode()


def test_a_printer_is_changed_and_removed(owner_client, business, kiosk, fake):
    printer = Printer.objects.create(business=business, name="Front", host=fake.host, port=fake.port)
    fields = form(business, fake, name="Counter", role="receipt", kiosk=kiosk.pk, paper_width=58)
    assert owner_client.post(f"/panel/printers/{printer.pk}", fields).status_code == 302
    printer.refresh_from_db()
    assert (printer.name, printer.role, printer.kiosk_id, printer.paper_width) == ("Counter", "receipt", kiosk.pk, 58)
    assert f"<td>Receipt: {kiosk.name}</td>" in owner_client.get("/panel/printers").content.decode()  # whose receipts

    assert owner_client.post(f"/panel/printers/{printer.pk}/delete").status_code == 302
    assert not Printer.objects.exists() and not PrintJob.objects.exists()


def test_another_owners_categories_and_kiosks_are_not_offered(owner_client, business, other_business, fake):
    theirs = factories.CategoryFactory(catalog=factories.CatalogFactory(business=other_business), name="Theirs")
    their_kiosk = factories.KioskFactory(business=other_business)
    response = owner_client.post("/panel/printers", form(business, fake, categories=[theirs.pk]))
    assert response.status_code == 200 and not Printer.objects.exists()
    response = owner_client.post("/panel/printers", form(business, fake, kiosk=their_kiosk.pk))
    assert response.status_code == 200 and not Printer.objects.exists()
    assert "Theirs" not in owner_client.get("/panel/printers").content.decode()


def test_a_category_of_another_business_of_the_same_owner_is_refused(owner_client, owner, business, fake):
    second = factories.BusinessFactory(owner=owner)
    elsewhere = factories.CategoryFactory(catalog=factories.CatalogFactory(business=second), name="Elsewhere")
    response = owner_client.post("/panel/printers", form(business, fake, categories=[elsewhere.pk]))
    assert response.status_code == 200 and not Printer.objects.exists()
    assert "menu categories" in response.content.decode()


def test_the_order_page_lists_its_tickets_and_reprints_one_marked_reprint(
    owner_client, business, fake, django_capture_on_commit_callbacks
):
    printer = Printer.objects.create(business=business, name="Grill", host=fake.host, port=fake.port)
    order = make_order(business, created_at=BASE)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        [job] = services.kitchen_tickets(order)
    fake.wait_for_tickets(1)
    html = owner_client.get(f"/panel/orders/{order.pk}").content.decode()
    assert f'data-ticket-id="{job.pk}"' in html and "Grill" in html and ">Printed</span>" in html

    with django_capture_on_commit_callbacks(execute=True):
        response = owner_client.post(f"/panel/tickets/{job.pk}/reprint")
    assert response.status_code == 302 and response["Location"] == f"/panel/orders/{order.pk}"

    first, again = fake.wait_for_tickets(2)
    assert again.splitlines()[0] == "*** REPRINT ***" and again.splitlines()[1:] == first.splitlines()
    assert PrintJob.objects.filter(printer=printer, reprint=True).count() == 1


def test_the_owner_sets_receipts_to_print_always_for_their_business_only(owner_client, business, other_business):
    page = owner_client.get("/panel/printers").content.decode()
    assert f'id="print-receipts-{business.pk}"' in page and f'id="print-receipts-{other_business.pk}"' not in page
    answer = owner_client.post("/panel/printers/settings", {"business": business.pk, "print_receipts": "on"})
    assert answer.status_code == 302
    assert PrintSettings.objects.get(business=business).print_receipts is True
    assert f'id="print-receipts-{business.pk}" checked' in owner_client.get("/panel/printers").content.decode()
    assert owner_client.post("/panel/printers/settings", {"business": business.pk}).status_code == 302
    assert PrintSettings.objects.get(business=business).print_receipts is False
    answer = owner_client.post("/panel/printers/settings", {"business": other_business.pk, "print_receipts": "on"})
    assert answer.status_code == 404 and not PrintSettings.objects.filter(business=other_business).exists()
