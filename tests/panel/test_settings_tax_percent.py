"""The tax rate is typed as a percentage, not in basis points."""

import pytest


def post(client, business, **fields):
    data = {
        "business_id": business.pk,
        "name": business.name,
        "currency": business.currency,
        "primary_color": "#112233",
        "attract_message": "Hi",
        **fields,
    }
    return client.post("/panel/settings", data)


def test_the_form_shows_and_takes_a_percentage(owner_client, business):
    business.tax_rate_bps = 2000
    business.save()
    page = owner_client.get("/panel/settings").content.decode()
    assert "Tax rate (%)" in page and 'name="tax_rate" value="20.00"' in page
    assert "basis points" not in page
    assert post(owner_client, business, tax_rate="7.5").status_code == 302
    business.refresh_from_db()
    assert business.tax_rate_bps == 750


@pytest.mark.parametrize("bad", ["101", "-1", "8.755", "eight"])
def test_an_impossible_percentage_is_refused(owner_client, business, bad):
    before = business.tax_rate_bps
    response = post(owner_client, business, tax_rate=bad)
    assert response.status_code == 200 and "tax_rate" in response.context["form"].errors
    business.refresh_from_db()
    assert business.tax_rate_bps == before
