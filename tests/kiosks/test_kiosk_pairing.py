"""POST /api/public/kiosks/pair: codes are 6 digits, live 15 minutes, work once, and issue a
device token that is stored hashed and revoked by unpairing."""

import uuid
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from apps.api.throttles import PairingThrottle
from apps.kiosks import services
from apps.kiosks.models import Kiosk, PairingCode, hash_device_token
from tests.support.kiosks import PAIR_URL, pair


@pytest.fixture
def code(business) -> str:
    return services.pairing_code_create(business=business)[1]


def test_pairing_returns_token_business_and_settings(business, code):
    device_id = uuid.uuid4()
    response = pair(Client(), code, device_id)
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"kiosk_id", "device_token", "business", "settings"}
    assert business.logo_url == "" and body["business"] == {"name": business.name, "logo_url": None}  # none set
    assert body["settings"] == {"primary_color": business.primary_color, "attract_message": business.attract_message}
    kiosk = Kiosk.objects.get(pk=int(body["kiosk_id"]))
    assert kiosk.business == business and kiosk.device_id == device_id and kiosk.name == "Front kiosk"
    assert kiosk.token_hash == hash_device_token(body["device_token"])
    assert body["device_token"] not in kiosk.token_hash  # only the hash is stored
    heartbeat = Client().post(
        "/api/public/kiosks/heartbeat",
        headers={"X-Device-Id": str(device_id), "X-Device-Token": body["device_token"]},
    )
    assert heartbeat.status_code == 200 and heartbeat.json() == {"ok": True}


def test_codes_are_six_digits_and_stored_hashed(business):
    pairing_code, code = services.pairing_code_create(business=business)
    assert len(code) == 6 and code.isdigit()
    assert code not in pairing_code.code_hash
    assert pairing_code.expires_at - pairing_code.created_at == timedelta(minutes=15)


def test_used_code_answers_409(code):
    assert pair(Client(), code).status_code == 200
    response = pair(Client(), code)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "PAIRING_CODE_ALREADY_USED"
    assert set(response.json()["error"]) == {"code", "message", "request_id"}


def test_expired_code_answers_410(code):
    with time_machine.travel(timezone.now() + timedelta(minutes=15, seconds=1)):
        response = pair(Client(), code)
    assert response.status_code == 410
    assert response.json()["error"]["code"] == "PAIRING_CODE_EXPIRED"
    assert PairingCode.objects.get().used_at is None


def test_code_still_works_just_before_expiry(code):
    with time_machine.travel(timezone.now() + timedelta(minutes=14, seconds=50)):
        assert pair(Client(), code).status_code == 200


def test_unknown_code_answers_404(db):
    response = pair(Client(), "000000")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "PAIRING_CODE_INVALID"


@pytest.mark.parametrize(
    "body",
    [
        {"code": "12345", "device_id": str(uuid.uuid4()), "device_name": "x"},
        {"code": "abcdef", "device_id": str(uuid.uuid4()), "device_name": "x"},
        {"code": "123456", "device_id": "not-a-uuid", "device_name": "x"},
        {"code": "123456", "device_id": str(uuid.uuid4())},
    ],
)
def test_malformed_pairing_request_answers_422(db, body):
    response = Client().post(PAIR_URL, body, content_type="application/json")
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_repairing_a_device_replaces_its_old_token(business):
    device_id = uuid.uuid4()
    first = pair(Client(), services.pairing_code_create(business=business)[1], device_id).json()
    second = pair(Client(), services.pairing_code_create(business=business)[1], device_id, name="Renamed").json()
    assert first["kiosk_id"] == second["kiosk_id"]
    assert Kiosk.objects.get().name == "Renamed"
    old = Client(headers={"X-Device-Id": str(device_id), "X-Device-Token": first["device_token"]})
    new = Client(headers={"X-Device-Id": str(device_id), "X-Device-Token": second["device_token"]})
    assert old.post("/api/public/kiosks/heartbeat").status_code == 401
    assert new.post("/api/public/kiosks/heartbeat").status_code == 200


def test_device_paired_to_another_owner_cannot_be_taken_over(business, other_business):
    device_id = uuid.uuid4()
    mine = pair(Client(), services.pairing_code_create(business=business)[1], device_id).json()
    response = pair(Client(), services.pairing_code_create(business=other_business)[1], device_id)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "DEVICE_ALREADY_PAIRED"
    still = Client(headers={"X-Device-Id": str(device_id), "X-Device-Token": mine["device_token"]})
    assert still.post("/api/public/kiosks/heartbeat").status_code == 200


def test_unpairing_revokes_the_token_at_once(kiosk, kiosk_client):
    assert kiosk_client.post("/api/public/kiosks/heartbeat").status_code == 200
    services.kiosk_unpair(kiosk=kiosk)
    response = kiosk_client.post("/api/public/kiosks/heartbeat")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"


def test_pairing_attempts_are_throttled_per_ip(db, monkeypatch, one_rate_window):
    monkeypatch.setattr(PairingThrottle, "THROTTLE_RATES", {"pairing": "3/min"})
    statuses = [pair(Client(), f"00000{n}").status_code for n in range(4)]
    assert statuses == [404, 404, 404, 429]
    limited = pair(Client(), "000009")
    assert limited.json()["error"]["code"] == "RATE_LIMITED"
    assert limited["Retry-After"] == "59"  # to the end of the minute
    other_ip = Client(REMOTE_ADDR="10.1.2.3")
    assert pair(other_ip, "000009").status_code == 404


def test_pairing_needs_no_device_headers_but_other_calls_do(code):
    assert pair(Client(), code).status_code == 200
    response = Client().post("/api/public/kiosks/heartbeat")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"
