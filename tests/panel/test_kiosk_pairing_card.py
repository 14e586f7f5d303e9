"""The Kiosks page does not keep showing a used (or expired) pairing code."""

import re
import uuid

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import expect

from apps.kiosks import services as kiosk_services
from apps.kiosks.models import PairingCode
from tests.panel.conftest import sign_in


def generate(client, business) -> tuple[str, PairingCode]:
    client.post("/panel/kiosks/pairing-code", {"business": business.pk})
    pairing = PairingCode.objects.filter(business=business).latest("created_at")
    return f"/panel/kiosks/pairing-codes/{pairing.pk}", pairing


def shown_code(page_html: str) -> str | None:
    found = re.search(r'id="pairing-code">(\d{6})<', page_html)
    return found.group(1) if found else None


def test_the_state_of_a_code_unused_used_expired(owner_client, business):
    state_url, pairing = generate(owner_client, business)
    code = shown_code(owner_client.get("/panel/kiosks").content.decode())
    assert code
    assert owner_client.get(state_url).json() == {"state": "unused", "kiosk": None}
    kiosk_services.kiosk_pair(code=code, device_id=uuid.uuid4(), device_name="Window tablet")
    assert owner_client.get(state_url).json() == {"state": "used", "kiosk": "Window tablet"}

    state_url, _ = generate(owner_client, business)
    with time_machine.travel(timezone.now() + timezone.timedelta(minutes=16)):
        assert owner_client.get(state_url).json()["state"] == "expired"


def test_a_code_used_before_the_page_shows_it_is_not_shown(owner_client, business, monkeypatch):
    owner_client.post("/panel/kiosks/pairing-code", {"business": business.pk})
    PairingCode.objects.filter(business=business).update(used_at=timezone.now())
    page = owner_client.get("/panel/kiosks").content.decode()
    assert shown_code(page) is None and 'id="pairing-card"' not in page


def test_another_owners_code_is_404(owner_client, other_business):
    other, _ = kiosk_services.pairing_code_create(business=other_business)
    response = owner_client.get(f"/panel/kiosks/pairing-codes/{other.pk}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.live
def test_the_card_goes_once_a_kiosk_pairs(page, panel_owner, business):
    sign_in(page, panel_owner.email)
    page.goto("/panel/kiosks")
    page.click("#generate-pairing-code")
    code = page.locator("#pairing-code").inner_text().strip()
    kiosk_services.kiosk_pair(code=code, device_id=uuid.uuid4(), device_name="Window tablet")
    expect(page.locator("#pairing-done")).to_have_text(re.compile("used by Window tablet"), timeout=10_000)
    expect(page.locator("#pairing-code")).to_have_count(0)
    page.console_errors.assert_none()
