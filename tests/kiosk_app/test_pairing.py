"""Pairing the kiosk app: a fresh code pairs and the attract screen shows the business's name,
colour and message; the device id is a UUID v4 kept with the token on the device (a reload stays
paired); a used code, an expired code and an unknown code and too many attempts (429) are refused in
words on another device."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.kiosk_app.conftest import assert_no_console_errors, pair

pytestmark = pytest.mark.live
UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def stored_device(page) -> dict:
    return json.loads(page.evaluate("window.localStorage.getItem('kiosk-app.device')"))


def test_pairing_with_a_fresh_code_then_refusals_in_words(world, serve, open_page):
    server = serve()
    page = open_page("/kiosk/", server)
    expect(page.locator("body")).to_have_attribute("data-screen", "pairing")
    device_id = stored_device(page)["deviceId"]
    assert UUID4.match(device_id)
    # The suggested name is this device's own, not the demo kiosk's "Front counter".
    expect(page.locator("#pairing-name")).to_have_value(f"Kiosk {device_id.replace('-', '')[:4].upper()}")

    page.fill("#pairing-code", "12345")
    page.fill("#pairing-name", "Front counter")
    page.click("#pairing-submit")
    expect(page.locator("#pairing-error")).to_have_text("Enter the 6-digit pairing code.")

    pair(page, world.codes["fresh"])
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    expect(page.locator("#business-name")).to_have_text("Burger Barn")
    expect(page.locator("#attract-message")).to_have_text("Tap to order with a real person")
    brand = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--brand').trim()")
    assert brand.lower() == "#c2410c"
    stored = stored_device(page)
    assert stored["deviceId"] == device_id and stored["token"] and stored["kioskId"]

    page.reload()  # the token is kept on the device: still paired, same device id
    expect(page.locator("body")).to_have_attribute("data-screen", "attract")
    assert stored_device(page)["deviceId"] == device_id
    assert_no_console_errors(page)

    other = open_page("/kiosk/", server)  # another tablet, another device id
    expect(other.locator("body")).to_have_attribute("data-screen", "pairing")  # its code has loaded
    assert stored_device(other)["deviceId"] != device_id
    pair(other, world.codes["fresh"], "Window")
    expect(other.locator("#pairing-error")).to_have_text(
        "This pairing code has already been used. Ask the owner for a new code."
    )
    other.fill("#pairing-code", world.codes["expired"])
    other.click("#pairing-submit")
    expect(other.locator("#pairing-error")).to_have_text(
        "This pairing code has expired. Ask the owner for a new code (owner panel, Kiosks)."
    )
    unknown = next(c for c in ("000000", "000001") if c not in world.codes.values())
    other.fill("#pairing-code", unknown)
    other.click("#pairing-submit")
    expect(other.locator("#pairing-error")).to_have_text(
        "This pairing code is not known. Check the 6 digits, or ask the owner for a new code."
    )
    expect(other.locator("body")).to_have_attribute("data-screen", "pairing")

    # Ten attempts a minute from one address: the next is 429, said with the wait it names. Each
    # click is waited for until its answer arrives (a click while the last one is still in flight
    # sends nothing); up to 25, as on a slow machine the minute may turn once on the way.
    for _ in range(25):
        with other.expect_response(lambda r: r.url.endswith("/api/public/kiosks/pair")) as answered:
            other.click("#pairing-submit")
        if answered.value.status == 429:
            break
    expect(other.locator("#pairing-error")).to_have_text(
        re.compile(r"^Too many pairing attempts\. Wait \d+ seconds, then try again\.$")
    )
    assert_no_console_errors(other)
