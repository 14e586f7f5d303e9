"""The owner uploads an item photo and types its Spanish name in the panel, in Chromium: the
photo is served and shows on the item page and in the catalog, and the kiosk's menu read gives
both."""

import pytest
from PIL import Image
from playwright.sync_api import expect

from tests import factories
from tests.conftest import kiosk_client_for
from tests.panel.conftest import sign_in
from tests.support.processes import wait_until

pytestmark = pytest.mark.live


def test_a_photo_and_a_translation_entered_in_the_panel(page, panel_owner, business, tmp_path):
    catalog = factories.CatalogFactory(business=business, language="en")
    category = factories.CategoryFactory(catalog=catalog, name="Burgers")
    item = factories.MenuItemFactory(category=category, name="Classic burger", price_cents=899)
    photo = tmp_path / "burger.jpg"
    Image.new("RGB", (1200, 900), (190, 90, 30)).save(photo, format="JPEG")

    sign_in(page, panel_owner.email)
    page.goto(f"/panel/menu/items/{item.pk}")
    expect(page.locator("#item-photo-missing")).to_be_visible()
    page.fill("#id_name_es", "Hamburguesa clásica")
    page.check("input[name=allergens][value=gluten]")
    page.set_input_files("#id_photo", str(photo))
    page.click("#item-form button[type=submit]")
    expect(page.locator("#item-photo")).to_be_visible()
    assert page.evaluate("document.getElementById('item-photo').naturalWidth") == 1024
    page.goto(f"/panel/menu/catalogs/{catalog.pk}")
    thumb = page.locator(".menu-item img")
    expect(thumb).to_have_count(1)
    # Polled from the test (wait_for_function evaluates its string with eval, which the panel's CSP refuses).
    wait_until(lambda: thumb.evaluate("img => img.naturalWidth") > 0, 10, "the thumbnail to load")
    page.console_errors.assert_none()

    item_body = kiosk_client_for(factories.KioskFactory(business=business)).get("/api/public/menu?locale=es").json()
    [served] = item_body["categories"][0]["menu_items"]
    assert served["name"] == "Hamburguesa clásica" and served["allergens"] == ["gluten"]
    assert served["photo_url"].endswith(".webp")
