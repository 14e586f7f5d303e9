"""GET /api/public/kiosks/me: the kiosk, its business and its settings as they are now, so the
kiosk app shows an owner's change without pairing again; device headers required."""

from apps.kiosks import services
from tests.conftest import kiosk_client_for


def test_the_profile_is_the_pairing_results_business_and_settings_as_they_are_now(kiosk, kiosk_client):
    first = kiosk_client.get("/api/public/kiosks/me")
    assert first.status_code == 200
    assert first.json()["kiosk_id"] == str(kiosk.pk)

    business = kiosk.business
    business.name = "Burger Barn Deluxe"
    business.primary_color = "#0E7490"
    business.attract_message = "Order with a real person"
    business.logo_url = "https://example.com/logo.png"
    business.save()

    # The credentials cache still holds the kiosk row with the old business; the profile does not.
    answer = kiosk_client.get("/api/public/kiosks/me")
    assert answer.status_code == 200
    assert answer.json() == {
        "kiosk_id": str(kiosk.pk),
        "name": kiosk.name,
        "location": kiosk.location,
        "business": {"name": "Burger Barn Deluxe", "logo_url": "https://example.com/logo.png"},
        "settings": {"primary_color": "#0E7490", "attract_message": "Order with a real person"},
        "mount": {"height_mm": 1000, "screen_height_mm": 180, "reach_mm": 1220},  # the defaults
    }


def test_the_profile_needs_a_valid_device_token(kiosk, client):
    anonymous = client.get("/api/public/kiosks/me")
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"

    services.kiosk_unpair(kiosk=kiosk)
    unpaired = kiosk_client_for(kiosk).get("/api/public/kiosks/me")
    assert unpaired.status_code == 401
    assert unpaired.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"
    assert "request_id" in unpaired.json()["error"]


def test_the_profile_is_a_read(kiosk_client):
    answer = kiosk_client.post("/api/public/kiosks/me")
    assert answer.status_code == 405
    assert answer.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
