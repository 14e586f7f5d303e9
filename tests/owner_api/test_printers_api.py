"""Owner API printers (printers:write): add, list (cursor pages), read, change and remove the
owner's network printers with their state and waiting tickets; a test page reaches the printer;
another owner's printer, business, categories or kiosk are refused."""

import pytest
from django.db import transaction

from apps.printing.models import JobStatus, Printer, PrintJob
from tests import factories
from tests.support.auth import error_of
from tests.support.fake_printer import OFFLINE, FakePrinter


@pytest.fixture
def fake():
    printer = FakePrinter()
    yield printer
    printer.close()


@pytest.fixture
def categories(business):
    catalog = factories.CatalogFactory(business=business)
    return factories.CategoryFactory(catalog=catalog, name="Grill"), factories.CategoryFactory(
        catalog=catalog, name="Bar"
    )


def add(api, business, **fields):
    body = {"business_id": business.pk, "name": "Grill", "host": "10.0.0.5", **fields}
    response = api.post("/api/owner/printers", body)
    assert response.status_code == 201, response.content
    return response.json()["data"]


def test_a_kitchen_printer_is_added_with_its_categories_and_read_back(api, business, categories):
    grill, _ = categories
    row = add(api, business, category_ids=[grill.pk], paper_width=58)
    assert row == {
        "id": row["id"],
        "name": "Grill",
        "business": {"id": business.pk, "name": business.name},
        "host": "10.0.0.5",
        "port": 9100,
        "paper_width": 58,
        "role": "kitchen",
        "category_ids": [grill.pk],
        "kiosk_id": None,
        "reads_status": True,
        "state": "unknown",
        "state_changed_at": None,
        "last_printed_at": None,
        "waiting": 0,
    }
    assert api.get(f"/api/owner/printers/{row['id']}").json()["data"] == row


def test_a_receipt_printer_names_its_kiosk_and_keeps_no_categories(api, business, kiosk, categories):
    row = add(api, business, role="receipt", kiosk_id=kiosk.pk, category_ids=[categories[0].pk])
    assert (row["role"], row["kiosk_id"], row["category_ids"]) == ("receipt", kiosk.pk, [])
    changed = api.patch(f"/api/owner/printers/{row['id']}", {"role": "kitchen"}).json()["data"]
    assert (changed["role"], changed["kiosk_id"]) == ("kitchen", None)


def test_invalid_fields_and_other_businesses_things_are_refused(
    api, business, other_business, stranger_kiosk, categories
):
    theirs = factories.CategoryFactory(catalog=factories.CatalogFactory(business=other_business))
    body = {"business_id": business.pk, "name": "Grill", "host": "10.0.0.5"}
    error = error_of(api.post("/api/owner/printers", {**body, "category_ids": [theirs.pk]}), 422, "VALIDATION_ERROR")
    assert "category_ids" in error["details"]
    error = error_of(api.post("/api/owner/printers", {**body, "kiosk_id": stranger_kiosk.pk}), 422, "VALIDATION_ERROR")
    assert "kiosk_id" in error["details"]
    for bad in ({"port": 0}, {"paper_width": 72}, {"role": "bar"}, {"host": ""}):
        error_of(api.post("/api/owner/printers", {**body, **bad}), 422, "VALIDATION_ERROR")
    error_of(api.post("/api/owner/printers", {**body, "business_id": other_business.pk}), 404, "NOT_FOUND")
    assert not Printer.objects.exists()


def test_another_owners_printer_is_not_found_on_every_route(api, other_business):
    theirs = Printer.objects.create(business=other_business, name="Theirs", host="10.0.0.9")
    path = f"/api/owner/printers/{theirs.pk}"
    error_of(api.get(path), 404, "NOT_FOUND")
    error_of(api.patch(path, {"name": "Mine"}), 404, "NOT_FOUND")
    error_of(api.delete(path), 404, "NOT_FOUND")
    error_of(api.post(f"{path}/test-page"), 404, "NOT_FOUND")
    assert api.get("/api/owner/printers").json()["results"] == []
    assert Printer.objects.get().name == "Theirs"


def test_the_list_is_paged_with_a_cursor_and_filtered_by_business(api, owner, business):
    second = factories.BusinessFactory(owner=owner)
    made = [add(api, business, name=f"P{n}")["id"] for n in range(3)] + [add(api, second, name="Other")["id"]]
    first = api.get("/api/owner/printers?limit=2").json()
    assert [row["id"] for row in first["results"]] == made[:2] and first["previous"] is None
    rest = api.get(first["next"]).json()
    assert [row["id"] for row in rest["results"]] == made[2:] and rest["next"] is None
    only = api.get(f"/api/owner/printers?business={second.pk}").json()["results"]
    assert [row["id"] for row in only] == made[3:]
    error = error_of(api.get("/api/owner/printers?cursor=bm9wZQ"), 422, "VALIDATION_ERROR")
    assert "cursor" in error["details"]


def test_the_state_and_waiting_tickets_show_and_a_new_address_is_tried_at_once(
    api, business, fake, django_capture_on_commit_callbacks
):
    fake.state = OFFLINE
    row = add(api, business, host=fake.host, port=fake.port)
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(f"/api/owner/printers/{row['id']}/test-page").status_code == 202
    body = api.get(f"/api/owner/printers/{row['id']}").json()["data"]
    assert (body["state"], body["waiting"]) == ("offline", 1) and body["state_changed_at"].endswith("Z")

    elsewhere = FakePrinter()  # the printer moved to another address
    try:
        with django_capture_on_commit_callbacks(execute=True):
            moved = api.patch(f"/api/owner/printers/{row['id']}", {"port": elsewhere.port})
        assert moved.status_code == 200, moved.content
        [page] = elsewhere.wait_for_tickets(1)
    finally:
        elsewhere.close()
    assert page.splitlines()[0] == "Test page"
    body = api.get(f"/api/owner/printers/{row['id']}").json()["data"]
    assert (body["state"], body["waiting"]) == ("online", 0) and body["last_printed_at"].endswith("Z")


def test_a_removed_printer_takes_its_waiting_tickets_with_it(api, business, fake, django_capture_on_commit_callbacks):
    fake.state = OFFLINE
    row = add(api, business, host=fake.host, port=fake.port)
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        api.post(f"/api/owner/printers/{row['id']}/test-page")
    assert PrintJob.objects.get().status == JobStatus.WAITING
    assert api.delete(f"/api/owner/printers/{row['id']}").status_code == 204
    assert not Printer.objects.exists() and not PrintJob.objects.exists()
    error_of(api.get(f"/api/owner/printers/{row['id']}"), 404, "NOT_FOUND")
