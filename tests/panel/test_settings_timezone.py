"""A business's IANA time zone is set on the Settings page; a name zoneinfo does not know is
refused, and a form posted without it keeps the current one."""

from apps.accounts.models import Business


def post(client, business, **fields):
    data = {
        "business_id": business.pk,
        "name": business.name,
        "currency": business.currency,
        "tax_rate": "8.75",
        "primary_color": "#112233",
        "attract_message": "Hi",
        **fields,
    }
    return client.post("/panel/settings", data)


def test_the_owner_sets_the_time_zone(owner_client, business):
    assert business.timezone == "UTC"  # the default until set
    page = owner_client.get("/panel/settings").content.decode()
    assert '<option value="Europe/Madrid">' in page
    assert post(owner_client, business, timezone="Europe/Madrid").status_code == 302
    assert Business.objects.get(pk=business.pk).timezone == "Europe/Madrid"
    assert post(owner_client, business).status_code == 302  # not posted: kept
    assert Business.objects.get(pk=business.pk).timezone == "Europe/Madrid"


def test_an_unknown_zone_is_refused(owner_client, business):
    response = post(owner_client, business, timezone="Mars/Olympus")
    assert response.status_code == 200 and "timezone" in response.context["form"].errors
    assert Business.objects.get(pk=business.pk).timezone == "UTC"
