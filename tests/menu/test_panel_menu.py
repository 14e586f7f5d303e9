"""The owner panel's menu forms: translations per language, allergens and dietary tags, photo
upload; what is entered reaches the kiosk's menu read. Another owner's entries are 404."""

import pytest

from apps.menu.models import Category, MenuItem
from tests import factories
from tests.menu.conftest import image_upload


@pytest.fixture
def catalog(business):
    return factories.CatalogFactory(business=business, language="en")


def item_post(**extra) -> dict:
    return {
        "name": "Classic burger",
        "description": "Beef patty.",
        "price": "8.99",
        "sort_order": 0,
        "stock": 0,
        "active": "on",
        "name_es": "Hamburguesa clásica",
        "description_es": "Carne de res.",
        "name_fr": "",
        "allergens": ["gluten", "milk"],
        "dietary": ["halal"],
        **extra,
    }


def test_an_item_entered_in_the_panel_reaches_the_kiosk_in_spanish(owner_client, catalog, kiosk_client, photo_dir):
    owner_client.post(
        f"/panel/menu/catalogs/{catalog.pk}", {"name": "Burgers", "name_es": "Hamburguesas", "sort_order": 0}
    )
    category = Category.objects.get(catalog=catalog)
    assert category.translations == {"es": {"name": "Hamburguesas"}}
    form_page = owner_client.get(f"/panel/menu/categories/{category.pk}/items/new").content.decode()
    for field in ("name_es", "description_fr", "name_de", 'value="gluten"', 'value="vegan"', 'type="file"'):
        assert field in form_page
    assert "name_en" not in form_page  # the catalog's own language is the item's own fields
    created = owner_client.post(
        f"/panel/menu/categories/{category.pk}/items/new", item_post(photo=image_upload("JPEG", name="burger.jpg"))
    )
    item = MenuItem.objects.get(category=category)
    assert created.status_code == 302 and created["Location"] == f"/panel/menu/items/{item.pk}"
    assert item.translations == {"es": {"name": "Hamburguesa clásica", "description": "Carne de res."}}
    assert item.allergens == ["gluten", "milk"] and item.dietary == ["halal"]
    assert item.photo.name.endswith(".webp") and (photo_dir / item.photo.name).is_file()

    group_url = f"/panel/menu/items/{item.pk}/groups"
    owner_client.post(group_url, {"name": "Extras", "name_es": "Extras", "min": 0, "max": 2})
    group = item.modifier_groups.get()
    owner_client.post(f"/panel/menu/groups/{group.pk}/options", {"name": "Cheese", "name_es": "Queso", "price": "1.00"})

    page = owner_client.get(f"/panel/menu/items/{item.pk}").content.decode()
    assert 'value="Queso"' in page and 'id="item-photo"' in page

    [category_body] = kiosk_client.get("/api/public/menu?locale=es").json()["categories"]
    [item_body] = category_body["menu_items"]
    assert category_body["name"] == "Hamburguesas"
    assert (item_body["name"], item_body["description"]) == ("Hamburguesa clásica", "Carne de res.")
    assert item_body["modifier_groups"][0]["options"][0]["name"] == "Queso"
    assert item_body["allergens"] == ["gluten", "milk"] and item_body["dietary"] == ["halal"]
    assert item_body["photo_url"] == f"http://testserver/media/menu-photos/{item.photo.name}"
    assert owner_client.get(item_body["photo_url"]).status_code == 200


def test_a_refused_photo_is_said_on_the_form_and_nothing_is_saved(owner_client, catalog, photo_dir):
    category = factories.CategoryFactory(catalog=catalog)
    item = factories.MenuItemFactory(category=category, name="Fries", price_cents=349)
    page = owner_client.post(
        f"/panel/menu/items/{item.pk}", item_post(name="Chips", photo=image_upload("GIF", size=(5, 5), name="a.gif"))
    )
    assert page.status_code == 200
    assert "Upload a JPEG, PNG or WebP photo." in page.content.decode()
    item.refresh_from_db()
    assert item.name == "Fries" and not item.photo


def test_an_unknown_allergen_is_refused(owner_client, catalog):
    item = factories.MenuItemFactory(category=factories.CategoryFactory(catalog=catalog))
    page = owner_client.post(f"/panel/menu/items/{item.pk}", item_post(allergens=["chocolate"]))
    assert page.status_code == 200 and "chocolate is not one of the available choices" in page.content.decode()
    item.refresh_from_db()
    assert item.allergens == []


def test_removing_the_photo(owner_client, catalog, photo_dir):
    item = factories.MenuItemFactory(category=factories.CategoryFactory(catalog=catalog), photo="x.webp")
    owner_client.post(f"/panel/menu/items/{item.pk}", item_post(remove_photo="on"))
    item.refresh_from_db()
    assert not item.photo


def test_another_owners_menu_is_404(owner_client, other_business):
    catalog = factories.CatalogFactory(business=other_business)
    category = factories.CategoryFactory(catalog=catalog)
    item = factories.MenuItemFactory(category=category)
    group = factories.ModifierGroupFactory(item=item)
    option = factories.ModifierOptionFactory(group=group)
    for url in (
        f"/panel/menu/catalogs/{catalog.pk}",
        f"/panel/menu/categories/{category.pk}/items/new",
        f"/panel/menu/items/{item.pk}",
    ):
        assert owner_client.get(url).status_code == 404
    for url in (
        f"/panel/menu/catalogs/{catalog.pk}/activate",
        f"/panel/menu/categories/{category.pk}",
        f"/panel/menu/items/{item.pk}/groups/{group.pk}",
        f"/panel/menu/groups/{group.pk}/options/{option.pk}",
        f"/panel/menu/groups/{group.pk}/options",
    ):
        assert owner_client.post(url, {"name": "Mine now", "price": "1", "min": 0, "max": 1}).status_code == 404
    assert category.__class__.objects.get(pk=category.pk).name != "Mine now"
