"""The demo processor's reader page in Chromium: a reader holding a payment shows its amount, and
clicking "Approved" pays it (the order is confirmed) and the page shows it approved without a
reload, with no console error."""

import pytest
from playwright.sync_api import expect

from apps.orders.models import Order

pytestmark = pytest.mark.live


def test_clicking_approved_on_the_reader_pays(page, paying_on_reader, demo_reader, cart_session):
    page.goto(f"/demo-processor/readers/{demo_reader.reader_id}/")
    expect(page.locator('[data-screen="holding"] [data-amount]')).to_have_text("$21.75")
    page.get_by_role("button", name="Approved", exact=True).click()
    expect(page.locator('[data-screen="approved"]')).to_be_visible()
    assert Order.objects.get(session=cart_session).status == "confirmed"  # the click answered after the events
    expect(page.get_by_role("button", name="Approved", exact=True)).to_be_disabled()
    page.console_errors.assert_none()
