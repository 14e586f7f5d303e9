"""Bad input answers a clear 4xx in the surface's envelope, never a 500, and writes nothing: NUL
bytes in ids and credentials, bodies over the upload limit, JSON nested past the depth limit,
webhook URLs with impossible ports, malformed signed processor events, and the method check before
the CSRF check."""

import json
import logging

import pytest
import stripe
from django.test import Client

from apps.billing.models import ProcessorEvent
from apps.core.models import DomainEvent
from apps.owner_api import services as owner_api_services
from apps.owner_api.scopes import ALL_SCOPES
from apps.sessions.models import Session
from apps.webhooks.models import WebhookSubscription
from tests.conftest import AgentClient
from tests.owner_api.conftest import FORM, TOKEN_URL, OwnerApiClient, basic, token_for
from tests.support.auth import error_of
from tests.support.payments import CONNECT_SECRET, PLATFORM_SECRET, recorded_event

DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 5_000 + "1" + "}" * 5_000
TOO_BIG = json.dumps({"email": "a@example.test", "password": "x" * (11 * 1024 * 1024)})


@pytest.fixture
def api_key(owner, settings):
    """(OwnerApiKey, client secret) with every scope."""
    settings.REQUIRE_TLS = False
    return owner_api_services.owner_api_key_create(owner=owner, name="bad input", scopes=ALL_SCOPES, created_by=None)


@pytest.fixture
def owner_api_client(api_key):
    return OwnerApiClient(token_for(*api_key))


def _kiosk_envelope(response, status: int, code: str) -> None:
    error = error_of(response, status, code)
    assert error["request_id"] == response["X-Request-Id"]


# --- NUL bytes ---------------------------------------------------------------------------


def test_a_nul_in_a_kiosk_session_id_is_404(kiosk_client):
    response = kiosk_client.get("/api/public/sessions/ses_%00abc/status")
    _kiosk_envelope(response, 404, "NOT_FOUND")


def test_a_nul_in_an_agent_session_id_is_404_and_changes_nothing(agent_client, kiosk):
    from tests import factories

    factories.SessionFactory(kiosk=kiosk)
    response = agent_client.post("/api/sessions/ses_%00x/accept")
    error_of(response, 404, "NOT_FOUND")
    assert not Session.objects.exclude(status="pending").exists()


@pytest.mark.parametrize(
    "path", ["/api/owner/kiosks/%0A", "/api/v1/webhooks/%0A", "/api/public/nope/%0A", "/api/nope/%0A", "/api/auth/%0A"]
)
def test_a_newline_in_a_path_is_a_json_404(db, path):
    """The surfaces' catch-all routes match a path holding a newline too (found by the fuzz
    test on the embedded default: it fell through to the HTML 404 page)."""
    response = Client().patch(path, "-1", content_type="application/json")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "NOT_FOUND"


def test_a_nul_in_a_query_string_is_400(agent_client):
    response = agent_client.get("/api/video/token?channel=ses_%00x&role=publisher")
    error_of(response, 400, "MALFORMED_REQUEST")


def test_a_nul_in_a_json_string_is_400(agent_client):
    response = agent_client.post("/api/agent/status", {"status": "break\u0000"})
    error_of(response, 400, "MALFORMED_REQUEST")


@pytest.mark.parametrize("where", ["form", "basic"])
def test_a_nul_in_the_oauth_client_id_is_invalid_client(api_key, where):
    key, secret = api_key
    client_id = key.client_id + "\x00"
    if where == "form":
        body = f"grant_type=client_credentials&client_id={client_id}&client_secret={secret}"
        response = Client().post(TOKEN_URL, body.replace("\x00", "%00"), content_type=FORM)
    else:
        response = Client().post(
            TOKEN_URL, "grant_type=client_credentials", content_type=FORM, headers=basic(client_id, secret)
        )
    assert response.status_code == 401, response.content
    assert response.json()["error"] == "invalid_client"


# --- Bodies over the upload limit --------------------------------------------------------


def test_a_body_over_the_limit_is_413_on_the_unauthenticated_token_login(db):
    response = Client().post("/api/auth/login", TOO_BIG, content_type="application/json")
    error_of(response, 413, "PAYLOAD_TOO_LARGE")


def test_a_body_over_the_limit_is_413_on_every_surface(kiosk_client, agent_client, token_client, owner_api_client):
    kiosk = kiosk_client.post("/api/public/sessions/start", TOO_BIG, content_type="application/json")
    _kiosk_envelope(kiosk, 413, "PAYLOAD_TOO_LARGE")
    error_of(agent_client.post("/api/orders", TOO_BIG), 413, "PAYLOAD_TOO_LARGE")
    error_of(token_client.post("/api/v1/webhooks", TOO_BIG, content_type="application/json"), 413, "PAYLOAD_TOO_LARGE")
    error_of(owner_api_client.post("/api/owner/kiosks/pairing-codes", TOO_BIG), 413, "PAYLOAD_TOO_LARGE")
    assert not Session.objects.exists() and not WebhookSubscription.objects.exists()


def test_a_form_body_over_the_limit_is_413_on_the_owner_token_endpoint(db, settings):
    settings.REQUIRE_TLS = False
    body = "grant_type=client_credentials&client_id=" + "x" * (11 * 1024 * 1024)
    error_of(Client().post(TOKEN_URL, body, content_type=FORM), 413, "PAYLOAD_TOO_LARGE")


# --- Deep nesting ------------------------------------------------------------------------


def test_deeply_nested_json_is_400_without_a_traceback(db, caplog):
    with caplog.at_level(logging.INFO):
        response = Client().post("/api/auth/login", DEEP_ARRAY, content_type="application/json")
    error = error_of(response, 400, "MALFORMED_REQUEST")
    assert "nested" in error["message"]
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_a_5000_deep_object_on_orders_is_400(agent_client, caplog):
    with caplog.at_level(logging.INFO):
        response = agent_client.post("/api/orders", DEEP_OBJECT)
    error_of(response, 400, "MALFORMED_REQUEST")
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


def test_nesting_up_to_the_limit_is_parsed(agent_client, settings):
    nested = '{"a":' * (settings.API_JSON_MAX_DEPTH - 1) + "1" + "}" * (settings.API_JSON_MAX_DEPTH - 1)
    body = '{"status": "break", "extra": ' + nested + "}"
    assert agent_client.post("/api/agent/status", body).status_code == 200
    too_deep = '{"status": "break", "extra": ' + '{"a":' + nested + "}}"
    error_of(agent_client.post("/api/agent/status", too_deep), 400, "MALFORMED_REQUEST")


# --- Webhook URLs ------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["https://hooks.example.test:70000/in", "https://hooks.example.test:-1/in"])
def test_a_webhook_url_with_an_impossible_port_is_422(token_client, settings, url):
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    response = token_client.post("/api/v1/webhooks", {"url": url, "events": ["order.created"]}, "application/json")
    error = error_of(response, 422, "VALIDATION_ERROR")
    assert "url" in error["details"]
    assert not WebhookSubscription.objects.exists()


# --- Signed processor events -------------------------------------------------------------


def _post_signed(payload: str, *, connect: bool = True):
    secret = CONNECT_SECRET if connect else PLATFORM_SECRET
    header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    path = "/processor/connect/webhook" if connect else "/processor/webhook"
    return Client().post(path, payload, content_type="application/json", headers={"Stripe-Signature": header})


def _event_json(**changes) -> str:
    event = recorded_event("payment_intent.succeeded", {"id": "pi_123"})
    event.update(changes)
    return json.dumps(event)


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param("[1, 2]", id="array"),
        pytest.param(_event_json(data=None), id="data-null"),
        pytest.param(_event_json(data={"object": "pi_123"}), id="object-string"),
        pytest.param(_event_json(data={"object": {"object": "payment_intent"}}), id="object-without-id"),
        pytest.param(_event_json(data={"object": {"id": 5}}), id="object-id-integer"),
        pytest.param(_event_json(id="evt_\u0000x"), id="nul-event-id"),
        pytest.param(_event_json(data={"object": {"id": "pi_\u0000"}}), id="nul-object-id"),
        pytest.param(_event_json(type=["x"]), id="type-list"),
        pytest.param(_event_json(created="yesterday"), id="created-string"),
        pytest.param(_event_json(id="evt_" + "x" * 300), id="id-too-long"),
        pytest.param('{"id": "evt_1", "type": "x", "data": ' + DEEP_ARRAY + "}", id="deep"),
        pytest.param("\xff\xfe not json", id="not-json"),
    ],
)
@pytest.mark.parametrize("connect", [True, False], ids=["connect", "platform"])
def test_a_malformed_signed_event_is_400_json_and_records_nothing(db, processor, payload, connect):
    response = _post_signed(payload, connect=connect)
    error_of(response, 400, "MALFORMED_REQUEST")
    assert not ProcessorEvent.objects.exists() and not DomainEvent.objects.exists()


@pytest.mark.parametrize(
    "event_type,obj",
    [
        ("invoice.paid", {"id": "in_1", "customer": {"id": "cus_1"}}),
        ("account.updated", {"id": "acct_1", "requirements": "none"}),
        ("payment_intent.payment_failed", {"id": "pi_1", "last_payment_error": "declined"}),
        ("customer.subscription.updated", {"id": "sub_1", "customer": "cus_1", "items": {"data": "x"}}),
        ("application_fee.created", {"id": "fee_1", "amount": "lots"}),
    ],
)
def test_a_signed_event_with_fields_of_the_wrong_type_is_400(db, processor, event_type, obj):
    response = _post_signed(json.dumps(recorded_event(event_type, obj)))  # one field of the wrong type
    error_of(response, 400, "MALFORMED_REQUEST")
    assert not ProcessorEvent.objects.exists()


def test_a_body_over_the_limit_on_a_processor_endpoint_is_413_json(db, processor):
    response = _post_signed(_event_json(padding="x" * (11 * 1024 * 1024)))
    error_of(response, 413, "PAYLOAD_TOO_LARGE")


@pytest.mark.parametrize("path", ["/processor/webhook", "/processor/connect/webhook"])
@pytest.mark.parametrize("method", ["get", "put", "delete"])
def test_a_wrong_method_on_a_processor_endpoint_is_a_json_405(db, path, method):
    response = getattr(Client(), method)(path)
    error_of(response, 405, "METHOD_NOT_ALLOWED")
    assert response["Allow"] == "POST"


# --- Method before CSRF ------------------------------------------------------------------


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_an_unsupported_method_on_an_agent_route_is_405_even_without_the_xsrf_header(agent, method):
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    response = getattr(Client, method)(client, "/api/agent/status")  # no X-XSRF-TOKEN
    error = error_of(response, 405, "METHOD_NOT_ALLOWED")
    assert error and {m.strip() for m in response["Allow"].split(",")} == {"POST", "OPTIONS"}


def test_a_supported_method_without_the_xsrf_header_is_still_419(agent):
    client = AgentClient()
    assert client.sign_in(agent.email).status_code == 200
    response = Client.post(client, "/api/agent/status", {"status": "break"}, content_type="application/json")
    error_of(response, 419, "CSRF_MISMATCH")
