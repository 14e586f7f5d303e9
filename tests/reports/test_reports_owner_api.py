"""The owner API's reports (reports:read): the same bodies as /api/v1/reports, for the key's
owner only; a token without the scope is 403 INSUFFICIENT_SCOPE. The sessions body conforms to
its published schema."""

import pytest

from apps.owner_api import services
from tests import factories
from tests.owner_api.conftest import OwnerApiClient, token_for
from tests.support.auth import error_of
from tests.support.reports import EMPTY_METRICS, FROM, TO, TOTALS, build_scene
from tests.support.schema_conformance import assert_conforms


@pytest.fixture
def scene(db):
    return build_scene()


def client_of(owner, *scopes) -> OwnerApiClient:
    key, secret = services.owner_api_key_create(owner=owner, name="reports", scopes=list(scopes), created_by=None)
    return OwnerApiClient(token_for(key, secret))


def test_sessions_and_items_with_reports_read(scene):
    api = client_of(scene.business.owner, "reports:read")
    response = api.get("/api/owner/reports/sessions", {"from": FROM, "to": TO, "group_by": "agent"}, secure=True)
    assert response.status_code == 200, response.content
    body = response.json()
    assert_conforms(body, "SessionReportOut")
    assert body["totals"] == TOTALS and body["group_by"] == "agent"
    items = api.get("/api/owner/reports/items", {"from": FROM, "to": TO}, secure=True)
    assert items.status_code == 200 and items.json()["items"][0]["item"]["name"] == "Burger"


def test_without_the_scope_is_403(scene):
    api = client_of(scene.business.owner, "orders:read")
    for path in ("/api/owner/reports/sessions", "/api/owner/reports/items"):
        error = error_of(api.get(path, {"from": FROM, "to": TO}, secure=True), 403, "INSUFFICIENT_SCOPE")
        assert error["details"] == {"required_scope": "reports:read"}


def test_another_owners_key_counts_nothing_of_this_owner(scene):
    api = client_of(factories.BusinessFactory().owner, "reports:read")
    body = api.get("/api/owner/reports/sessions", {"from": FROM, "to": TO}, secure=True).json()
    assert body["totals"] == EMPTY_METRICS
