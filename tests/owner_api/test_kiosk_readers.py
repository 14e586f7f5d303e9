"""Owner API: a kiosk's card reader, registered on the owner's connected account through the real
`stripe` library against the demo processor: register (a location per business, made once),
replace (the old reader unregistered), remove, refusals in the envelope, and another owner's
kiosk a 404."""

import json

import pytest

from apps.billing.models import CardReader, ReaderLocation
from apps.demo_processor import services as demo_processor
from apps.demo_processor.models import DemoLocation, DemoReader
from tests import factories
from tests.support.auth import error_of

ACCOUNT = "acct_demo_readers"


@pytest.fixture
def demo_billing(owner):
    demo_processor.account_open(ACCOUNT)
    return factories.OwnerBillingFactory(owner=owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)


def put_reader(api, kiosk_id, body):
    return api.put(f"/api/owner/kiosks/{kiosk_id}/reader", json.dumps(body), content_type="application/json")


def test_a_registered_reader_is_listed_with_its_status(api, kiosk, demo_billing):
    response = put_reader(api, kiosk.pk, {"registration_code": "simulated-wpe", "label": "Front counter"})
    assert response.status_code == 200, response.content
    reader = response.json()["data"]["reader"]
    assert reader["label"] == "Front counter" and reader["status"] == "online"
    assert reader["device_type"] == "simulated_wisepos_e" and reader["last_action"] is None
    stored = CardReader.objects.get(kiosk=kiosk)
    assert DemoReader.objects.get(reader_id=stored.reader_id).account_id == ACCOUNT
    [row] = api.get("/api/owner/kiosks").json()["data"]
    assert row["reader"]["id"] == stored.reader_id


def test_one_location_per_business_and_a_replaced_reader_is_unregistered(api, kiosk, business, demo_billing):
    first = put_reader(api, kiosk.pk, {"registration_code": "simulated-wpe"}).json()["data"]["reader"]
    assert first["label"] == kiosk.name
    second_kiosk = factories.KioskFactory(business=business)
    assert put_reader(api, second_kiosk.pk, {"registration_code": "simulated-s700"}).status_code == 200
    replaced = put_reader(api, kiosk.pk, {"registration_code": "simulated-s700", "label": "New one"})
    assert replaced.status_code == 200, replaced.content
    assert replaced.json()["data"]["reader"]["id"] != first["id"]
    assert not DemoReader.objects.filter(reader_id=first["id"]).exists()
    assert ReaderLocation.objects.filter(business=business).count() == 1 == DemoLocation.objects.count()
    assert CardReader.objects.count() == 2


def test_a_removed_reader_is_gone_at_the_processor_too(api, kiosk, demo_billing):
    reader_id = put_reader(api, kiosk.pk, {"registration_code": "simulated-wpe"}).json()["data"]["reader"]["id"]
    removed = api.delete(f"/api/owner/kiosks/{kiosk.pk}/reader")
    assert removed.status_code == 200, removed.content
    assert removed.json()["data"]["reader"] is None
    assert not DemoReader.objects.filter(reader_id=reader_id).exists()
    error_of(api.delete(f"/api/owner/kiosks/{kiosk.pk}/reader"), 404, "NOT_FOUND")


def test_a_code_the_processor_refuses_is_a_validation_error(api, kiosk, demo_billing):
    error = error_of(put_reader(api, kiosk.pk, {"registration_code": "purple-cat-42"}), 422, "VALIDATION_ERROR")
    assert "registration_code" in error["details"]
    error_of(put_reader(api, kiosk.pk, {}), 422, "VALIDATION_ERROR")
    assert not CardReader.objects.exists()


def test_before_onboarding_the_owner_is_told(api, kiosk, owner):
    factories.OwnerBillingFactory(owner=owner, account_id="", charges_enabled=False)
    error_of(put_reader(api, kiosk.pk, {"registration_code": "simulated-wpe"}), 409, "PROCESSOR_ACCOUNT_NOT_READY")


def test_another_owners_kiosk_is_not_found(api, stranger_kiosk, demo_billing):
    error_of(put_reader(api, stranger_kiosk.pk, {"registration_code": "simulated-wpe"}), 404, "NOT_FOUND")
    error_of(api.delete(f"/api/owner/kiosks/{stranger_kiosk.pk}/reader"), 404, "NOT_FOUND")
    assert not CardReader.objects.exists()
