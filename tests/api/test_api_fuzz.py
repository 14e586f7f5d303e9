"""Bad input, generated: schemathesis reads our OpenAPI schema and throws valid and invalid requests
at every operation of every API surface, each with that surface's real credentials (device headers,
agent cookie + X-XSRF-TOKEN, bearer token, owner API key token). No answer may be a 5xx; every
answer's status must be one the schema documents for the operation, with the documented body and
content type; input the schema forbids must be refused. Then the bad inputs that once answered 500
are sent to every operation, and every undocumented method to every path. The number of generated
examples per operation is bounded so the suite stays fast; FUZZ_EXAMPLES raises it for a longer
hunt."""

import json
import os
import re

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.config._checks import NegativeDataRejectionConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from apps.accounts import services as account_services
from apps.owner_api import services as owner_api_services
from apps.owner_api.scopes import ALL_SCOPES
from tests import factories
from tests.conftest import AgentClient
from tests.owner_api.conftest import token_for

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
# Invalid input must be refused with one of our 4xx refusals; 419 (CSRF) and 413 (body over the
# limit) are refusals too.
schema.config.checks.negative_data_rejection = NegativeDataRejectionConfig(
    expected_statuses=[400, 401, 403, 404, 405, 406, 409, 413, 415, 419, 422, 429]
)


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
        headers=headers,
        checks=[
            not_a_server_error,
            status_code_conformance,
            response_schema_conformance,
            content_type_conformance,
            negative_data_rejection,
        ],
    )


# --- Known bad input, on every operation -----------------------------------------------------
# Each answered a 500 (or an HTML page) once. They are sent to every operation the
# schema lists, with that surface's credentials, and must be a 4xx the schema documents.

OPERATIONS = [result.ok() for result in schema.get_all_operations()]
NUL = "ses_\x00x"
DEEP_JSON = "[" * 100_000 + "]" * 100_000


def _bad_inputs(operation):
    """(name, case, raw body or None) for each bad input this operation can be sent."""
    path = {parameter.name: "1" for parameter in operation.path_parameters}
    query = {parameter.name: "x" for parameter in operation.query if parameter.is_required}
    media_types = set(operation.definition.raw.get("requestBody", {}).get("content", {}))
    for name in path:
        yield "nul-in-path", operation.Case(path_parameters={**path, name: NUL}, query=query), None
    for parameter in operation.query:
        yield "nul-in-query", operation.Case(path_parameters=path, query={**query, parameter.name: NUL}), None
    if "application/json" in media_types:
        case = operation.Case(path_parameters=path, query=query, body={}, media_type="application/json")
        yield "nul-in-body", case, json.dumps({"id": NUL, "name": NUL})
        yield "deep-body", case, DEEP_JSON
        yield "body-over-the-limit", case, json.dumps({"padding": "x" * (11 * 1024 * 1024)})
    if "application/x-www-form-urlencoded" in media_types:
        case = operation.Case(path_parameters=path, body={}, media_type="application/x-www-form-urlencoded")
        yield "nul-in-form", case, "grant_type=client_credentials&client_id=%00&client_secret=x"
        yield "form-over-the-limit", case, "client_id=" + "x" * (11 * 1024 * 1024)


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda operation: operation.label)
@pytest.mark.django_db(transaction=True)
def test_known_bad_input_answers_a_documented_4xx_on_every_operation(operation, credentials):
    headers = credentials.get(surface_of(operation.path), {})
    for name, case, raw in _bad_inputs(operation):
        extra = {"data": raw.encode()} if raw is not None else {}
        response = case.call_and_validate(
            headers=headers,
            checks=[not_a_server_error, status_code_conformance, response_schema_conformance, content_type_conformance],
            **extra,
        )
        assert 400 <= response.status_code < 500, (name, response.status_code, response.text[:200])


PATHS = sorted({operation.path for operation in OPERATIONS})


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.django_db(transaction=True)
def test_an_undocumented_method_is_405_before_credentials_or_csrf(path, credentials, client, settings):
    """The method is checked first: a signed-in agent without X-XSRF-TOKEN gets 405, not 419, and
    a caller without credentials gets 405, not 401."""
    documented = {operation.method.upper() for operation in OPERATIONS if operation.path == path}
    url = path.replace("{app_id}", str(settings.REALTIME_APP_ID))
    url = re.sub(r"\{[^}]+\}", "1", url)
    headers = {k: v for k, v in credentials.get(surface_of(path), {}).items() if k != "X-XSRF-TOKEN"}
    for method in {"GET", "POST", "PUT", "PATCH", "DELETE"} - documented - ({"HEAD"} if "GET" in documented else set()):
        for sent in (headers, {}):
            response = client.generic(method, url, headers=sent)
            assert response.status_code == 405, (method, url, response.status_code, response.content[:200])
            assert response.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
            assert documented <= {m.strip() for m in response["Allow"].split(",")}
