"""The super-admin activates a catalog through the menu service: a business keeps exactly one
active catalog, and the active flag cannot be ticked by hand in the form."""

from django.test import Client

from apps.menu.models import Catalog
from tests import factories


def test_activating_from_the_admin_stops_the_business_s_other_catalog(db):
    client = Client()
    client.force_login(factories.UserFactory(is_staff=True, is_superuser=True))
    business = factories.BusinessFactory()
    old = factories.CatalogFactory(business=business, is_active=True)
    new = factories.CatalogFactory(business=business, is_active=False)
    other_business = factories.CatalogFactory(is_active=True)

    page = client.get(f"/admin/menu/catalog/{new.pk}/change/")
    assert page.status_code == 200
    assert b'name="is_active"' not in page.content
    assert b'name="business"' not in page.content

    response = client.post("/admin/menu/catalog/", {"action": "activate", "_selected_action": [new.pk]})
    assert response.status_code == 302

    assert list(Catalog.objects.filter(business=business, is_active=True)) == [new]
    assert Catalog.objects.get(pk=old.pk).is_active is False
    assert Catalog.objects.get(pk=other_business.pk).is_active is True
