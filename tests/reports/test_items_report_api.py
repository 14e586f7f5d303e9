"""GET /api/v1/reports/items: sales by item and by modifier option over the paid orders of the
range's sessions (the Madrid scene of tests/support/reports.py), and nothing of another owner."""

import pytest

from tests import factories
from tests.conftest import token_client_for
from tests.support.auth import error_of
from tests.support.reports import FROM, TO, build_scene
from tests.support.schema_conformance import assert_conforms

URL = "/api/v1/reports/items"


@pytest.fixture
def scene(db, settings):
    settings.REQUIRE_TLS = False
    return build_scene()


def test_items_and_options_sold_in_the_range(scene):
    response = token_client_for(scene.ben).get(URL, {"from": FROM, "to": TO})
    assert response.status_code == 200, response.content
    body = response.json()
    assert_conforms(body, "ItemReportOut")
    items = scene.items
    assert body == {
        "from": FROM,
        "to": TO,
        "timezone": "Europe/Madrid",
        "items": [  # S0, S6 (outside) and S4's draft are not counted
            {"item": {"id": items["Burger"].pk, "name": "Burger"}, "quantity": 3, "revenue_cents": 2400},
            {"item": {"id": items["Fries"].pk, "name": "Fries"}, "quantity": 3, "revenue_cents": 1200},
            {"item": {"id": items["Salad"].pk, "name": "Salad"}, "quantity": 1, "revenue_cents": 700},
        ],
        "options": [
            {"group": "Size", "option": {"id": 11, "name": "Large"}, "quantity": 3, "revenue_cents": 2400},
            {"group": "Sauce", "option": {"id": 21, "name": "Ketchup"}, "quantity": 2, "revenue_cents": 800},
        ],
    }


def test_another_owner_sees_none_of_it(scene):
    other = factories.AgentFactory(owner=factories.BusinessFactory().owner)
    body = token_client_for(other).get(URL, {"from": FROM, "to": TO}).json()
    assert body["items"] == [] and body["options"] == []
    response = token_client_for(scene.ana).get(
        URL, {"from": FROM, "to": TO, "business": other.owner.businesses.get().pk}
    )
    error_of(response, 404, "NOT_FOUND")


def test_bad_dates_are_422(scene):
    api = token_client_for(scene.ana)
    assert "from" in error_of(api.get(URL, {"from": "2026-02-30", "to": TO}), 422, "VALIDATION_ERROR")["details"]
    assert "to" in error_of(api.get(URL, {"from": TO, "to": FROM}), 422, "VALIDATION_ERROR")["details"]
