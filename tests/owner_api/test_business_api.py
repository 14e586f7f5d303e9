"""Owner API business (business:write): read a business and set the address its receipts print;
bad input is a 422 in the error envelope, another owner's business 404, a token without the
scope 403."""

from tests.support.auth import error_of


def test_the_address_is_read_and_set(api, business):
    read = api.get(f"/api/owner/businesses/{business.pk}")
    assert read.status_code == 200
    assert read.json() == {"data": {"id": business.pk, "name": business.name, "address": ""}}
    changed = api.patch(f"/api/owner/businesses/{business.pk}", {"address": " 1 Main St \n\nSpringfield "})
    assert changed.status_code == 200, changed.content
    assert changed.json()["data"]["address"] == "1 Main St\nSpringfield"
    business.refresh_from_db()
    assert business.address == "1 Main St\nSpringfield"
    cleared = api.patch(f"/api/owner/businesses/{business.pk}", {"address": ""})
    assert cleared.status_code == 200 and cleared.json()["data"]["address"] == ""


def test_bad_addresses_are_refused_in_the_envelope(api, business):
    too_long = error_of(
        api.patch(f"/api/owner/businesses/{business.pk}", {"address": "x" * 301}), 422, "VALIDATION_ERROR"
    )
    assert "address" in too_long["details"]
    lines = error_of(
        api.patch(f"/api/owner/businesses/{business.pk}", {"address": "\n".join("abcdefg")}), 422, "VALIDATION_ERROR"
    )
    assert "address" in lines["details"]
    error_of(api.patch(f"/api/owner/businesses/{business.pk}", {"address": 5}), 422, "VALIDATION_ERROR")
    error_of(api.patch(f"/api/owner/businesses/{business.pk}", {}), 422, "VALIDATION_ERROR")
    business.refresh_from_db()
    assert business.address == ""


def test_another_owners_business_is_not_found_and_the_scope_is_needed(api, client_with, business, other_business):
    error_of(api.get(f"/api/owner/businesses/{other_business.pk}"), 404, "NOT_FOUND")
    error_of(api.patch(f"/api/owner/businesses/{other_business.pk}", {"address": "x"}), 404, "NOT_FOUND")
    reader = client_with("orders:read")
    error_of(reader.patch(f"/api/owner/businesses/{business.pk}", {"address": "x"}), 403, "INSUFFICIENT_SCOPE")
