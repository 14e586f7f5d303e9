"""Bad input, generated: schemathesis reads our OpenAPI schema and throws valid and invalid requests
at every operation of every API surface, each with that surface's real credentials (device
headers, agent cookie + X-XSRF-TOKEN, bearer token, owner API key token). No answer may be a 5xx,
and every answer must match the schema (body and content type). The number of examples per operation is bounded so the
suite stays fast; FUZZ_EXAMPLES raises it for a longer hunt."""

import os

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, response_schema_conformance

from apps.accounts import services as account_services
from apps.owner_api import services as owner_api_services
from apps.owner_api.scopes import ALL_SCOPES
from tests import factories
from tests.conftest import AgentClient
from tests.owner_api.conftest import token_for

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture
def credentials(business, kiosk, agent, settings):
    """Headers per surface, for a tenant with a kiosk, a signed-in agent and a bearer token."""
    settings.REQUIRE_TLS = False
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    _, bearer = account_services.access_token_issue(user=agent, name="fuzz")
    key, secret = owner_api_services.owner_api_key_create(
        owner=business.owner, name="fuzz", scopes=ALL_SCOPES, created_by=None
    )
    factories.SessionFactory(kiosk=kiosk)
    return {
        "owner": {"Authorization": f"Bearer {token_for(key, secret)}"},
        "kiosk": {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token},
        "token": {"Authorization": f"Bearer {bearer}"},
        "agent": {"Cookie": cookies, "X-XSRF-TOKEN": client.cookies["XSRF-TOKEN"].value},
    }


def surface_of(path: str) -> str:
    if path.startswith("/api/public/"):
        return "kiosk"
    if path.startswith(("/api/v1/", "/api/auth/")):
        return "token"
    if path.startswith("/api/owner/"):
        return "owner"
    return "agent"


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@pytest.mark.django_db(transaction=True)  # the app may answer from another thread: data must be committed
def test_no_operation_answers_5xx_or_breaks_the_schema(case, credentials):
    headers = credentials.get(surface_of(case.path), {})
    case.call_and_validate(
        headers=headers, checks=[not_a_server_error, response_schema_conformance, content_type_conformance]
    )
