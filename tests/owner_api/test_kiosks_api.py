"""Owner API kiosks (kiosks:write): a fresh pairing code that really pairs, the list of paired
kiosks, rename, unpair (the device token dies at once), and every route's cross-owner 404."""

import uuid
from datetime import timedelta

from django.test import Client
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from apps.kiosks.models import Kiosk, PairingCode
from tests import factories
from tests.conftest import kiosk_client_for
from tests.support.auth import error_of


def test_a_pairing_code_for_the_owners_only_business_pairs_a_kiosk(api, business):
    response = api.post("/api/owner/kiosks/pairing-codes", {})
    assert response.status_code == 201, response.content
    body = response.json()
    assert len(body["code"]) == 6 and body["code"].isdigit()
    assert body["expires_at"].endswith("Z") and body["business"] == {"id": business.pk, "name": business.name}
    assert PairingCode.objects.get().business == business
    paired = Client().post(
        "/api/public/kiosks/pair",
        {"code": body["code"], "device_id": str(uuid.uuid4()), "device_name": "Lobby"},
        content_type="application/json",
    )
    assert paired.status_code == 200, paired.content
    assert Kiosk.objects.get(name="Lobby").business == business


def test_an_owner_with_several_businesses_names_one(api, owner, business, other_business):
    second = factories.BusinessFactory(owner=owner)
    error = error_of(api.post("/api/owner/kiosks/pairing-codes", {}), 422, "VALIDATION_ERROR")
    assert "business_id" in error["details"]
    response = api.post("/api/owner/kiosks/pairing-codes", {"business_id": second.pk})
    assert response.status_code == 201 and response.json()["business"]["id"] == second.pk
    error_of(api.post("/api/owner/kiosks/pairing-codes", {"business_id": other_business.pk}), 404, "NOT_FOUND")
    error_of(api.post("/api/owner/kiosks/pairing-codes", {"business_id": "x"}), 422, "VALIDATION_ERROR")
    assert PairingCode.objects.filter(business=other_business).count() == 0


def test_the_list_holds_the_owners_paired_kiosks_only(api, kiosk, stranger_kiosk, business):
    gone = factories.KioskFactory(business=business, name="Old one")
    assert api.post(f"/api/owner/kiosks/{gone.pk}/unpair").status_code == 200
    response = api.get("/api/owner/kiosks")
    assert response.status_code == 200, response.content
    [row] = response.json()["data"]
    assert row["id"] == kiosk.pk and row["name"] == kiosk.name and row["location"] == kiosk.location
    assert row["business"] == {"id": business.pk, "name": business.name}
    assert row["online"] is True and row["paired"] is True and row["last_seen_at"].endswith("Z")


def test_rename_changes_the_name_and_location_and_keeps_the_device_token(api, kiosk):
    response = api.patch(f"/api/owner/kiosks/{kiosk.pk}", {"name": "  Patio  "})
    assert response.status_code == 200, response.content
    assert response.json()["data"]["name"] == "Patio" and response.json()["data"]["location"] == kiosk.location
    api.patch(f"/api/owner/kiosks/{kiosk.pk}", {"location": "Terrace"})
    kiosk.refresh_from_db()
    assert (kiosk.name, kiosk.location) == ("Patio", "Terrace")
    assert kiosk_client_for(kiosk).post("/api/public/kiosks/heartbeat").status_code in (200, 204)


def test_rename_refuses_a_blank_or_too_long_name(api, kiosk):
    error = error_of(api.patch(f"/api/owner/kiosks/{kiosk.pk}", {"name": "   "}), 422, "VALIDATION_ERROR")
    assert "name" in error["details"]
    error = error_of(api.patch(f"/api/owner/kiosks/{kiosk.pk}", {"name": "x" * 201}), 422, "VALIDATION_ERROR")
    assert "name" in error["details"]
    error_of(api.patch(f"/api/owner/kiosks/{kiosk.pk}", "{not json"), 400, "MALFORMED_REQUEST")
    kiosk.refresh_from_db()
    assert kiosk.name.startswith("Kiosk")


def test_unpair_revokes_the_device_token_at_once(api, kiosk):
    device = kiosk_client_for(kiosk)
    assert device.post("/api/public/kiosks/heartbeat").status_code in (200, 204)
    response = api.post(f"/api/owner/kiosks/{kiosk.pk}/unpair")
    assert response.status_code == 200, response.content
    assert response.json()["data"]["paired"] is False and response.json()["data"]["online"] is False
    error_of(device.post("/api/public/kiosks/heartbeat"), 401, "DEVICE_TOKEN_INVALID")
    # An unpaired kiosk is gone from this API.
    error_of(api.post(f"/api/owner/kiosks/{kiosk.pk}/unpair"), 404, "NOT_FOUND")
    error_of(api.patch(f"/api/owner/kiosks/{kiosk.pk}", {"name": "Back"}), 404, "NOT_FOUND")


def test_another_owners_kiosk_is_not_found_on_every_route(api, stranger_kiosk):
    error_of(api.patch(f"/api/owner/kiosks/{stranger_kiosk.pk}", {"name": "Mine now"}), 404, "NOT_FOUND")
    error_of(api.post(f"/api/owner/kiosks/{stranger_kiosk.pk}/unpair"), 404, "NOT_FOUND")
    error_of(api.patch("/api/owner/kiosks/999999", {"name": "Nobody"}), 404, "NOT_FOUND")
    stranger_kiosk.refresh_from_db()
    assert stranger_kiosk.is_paired and stranger_kiosk.name != "Mine now"
    assert kiosk_client_for(stranger_kiosk).post("/api/public/kiosks/heartbeat").status_code in (200, 204)


def test_a_kiosk_without_a_location_lists_it_as_null(api, kiosk):
    kiosk.location = ""
    kiosk.save(update_fields=["location"])
    [row] = api.get("/api/owner/kiosks").json()["data"]
    assert row["location"] is None  # docs/decisions/api.md "Absent URLs and locations"


def test_last_seen_is_the_last_request_heard_although_the_row_is_written_less_often(api, kiosk):
    """The row's last_seen_at is written at most every 45 s; the list shows the request heard."""
    an_hour_ago = timezone.now() - timedelta(hours=1)
    kiosk_client = kiosk_client_for(kiosk)
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200  # the row's write is done
    Kiosk.objects.filter(pk=kiosk.pk).update(last_seen_at=an_hour_ago)  # as if written long ago
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200  # heard, not written
    assert Kiosk.objects.get(pk=kiosk.pk).last_seen_at == an_hour_ago

    [row] = api.get("/api/owner/kiosks").json()["data"]
    assert abs(parse_datetime(row["last_seen_at"]) - timezone.now()) < timedelta(seconds=10)
    renamed = api.patch(f"/api/owner/kiosks/{kiosk.pk}", {"name": "Patio"}).json()["data"]
    assert abs(parse_datetime(renamed["last_seen_at"]) - timezone.now()) < timedelta(seconds=10)
