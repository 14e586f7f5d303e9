"""GET/POST /api/v1/webhooks and DELETE /api/v1/webhooks/{id} (token API, spec 2 and 4.3):
the subscription fields, the secret shown once, URL and event validation, permanent delete, and
404 for every token route given another owner's resource."""

import re

import pytest
from django.db import transaction
from django.test import Client

from apps.core.events import EVENT_NAMES
from apps.webhooks.models import WebhookDelivery, WebhookSubscription
from tests import factories
from tests.conftest import token_client_for
from tests.support.auth import error_of
from tests.support.webhook_events import emit_webhook

PUBLIC_URL = "https://93.184.216.34/hooks"  # a global address literal: no DNS needed
FIELDS = {"id", "url", "events", "active", "failure_count", "last_delivered_at", "last_failed_at", "created_at"}


@pytest.fixture
def other_api(other_business) -> Client:
    return token_client_for(factories.AgentFactory(owner=other_business.owner))


@pytest.fixture
def production_rules(settings):
    """What APP_ENV=production turns on: https receivers, no private targets."""
    settings.PRODUCTION = True
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    return settings


def create(api: Client, url: str = PUBLIC_URL, events=("order.created",)):
    return api.post("/api/v1/webhooks", {"url": url, "events": list(events)}, content_type="application/json")


# ----------------------------------------------------------------------------- create


def test_create_answers_the_subscription_and_a_64_hex_secret(api, owner):
    response = create(api, events=["order.created", "session.ended"])
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"data", "secret"}
    assert re.fullmatch(r"[0-9a-f]{64}", body["secret"])
    data = body["data"]
    assert set(data) == FIELDS
    assert isinstance(data["id"], int)
    assert data["url"] == PUBLIC_URL and data["events"] == ["order.created", "session.ended"]
    assert data["active"] is True and data["failure_count"] == 0
    assert data["last_delivered_at"] is None and data["last_failed_at"] is None
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", data["created_at"])
    stored = WebhookSubscription.objects.get(pk=data["id"])
    assert stored.owner_id == owner.pk and stored.signing_secret() == body["secret"]
    assert body["secret"] not in stored.encrypted_secret  # only its Fernet token is stored


def test_every_spec_event_can_be_subscribed(api):
    response = create(api, events=EVENT_NAMES)
    assert response.status_code == 201
    assert response.json()["data"]["events"] == list(EVENT_NAMES)


def test_repeated_event_names_are_kept_once(api):
    response = create(api, events=["kiosk.offline", "kiosk.offline", "kiosk.online"])
    assert response.json()["data"]["events"] == ["kiosk.offline", "kiosk.online"]


def test_each_subscription_gets_its_own_secret(api):
    assert create(api).json()["secret"] != create(api).json()["secret"]


def test_secret_is_never_shown_again(api):
    secret = create(api).json()["secret"]
    listed = api.get("/api/v1/webhooks")
    assert listed.status_code == 200
    assert secret not in listed.content.decode()
    assert all(set(item) == FIELDS for item in listed.json()["data"])


def test_created_subscription_receives_its_events(api, owner, django_capture_on_commit_callbacks):
    subscription_id = create(api, events=["kiosk.online"]).json()["data"]["id"]
    with django_capture_on_commit_callbacks(), transaction.atomic():
        emit_webhook("kiosk.online", {"kiosk_id": 1}, owner_id=owner.pk)
    assert WebhookDelivery.objects.get().subscription_id == subscription_id


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    "url",
    ["not a url", "ftp://example.com/hooks", "https://", "//example.com/hooks", "", "https://exa mple.com/"],
)
def test_bad_url_is_422(api, url):
    error = error_of(create(api, url=url), 422, "VALIDATION_ERROR")
    assert "url" in error["details"]
    assert not WebhookSubscription.objects.exists()


def test_overlong_url_is_422(api):
    error_of(create(api, url="https://example.com/" + "a" * 2000), 422, "VALIDATION_ERROR")


def test_plain_http_receiver_is_422_under_production_rules(api, production_rules):
    error = error_of(create(api, url="http://93.184.216.34/hooks"), 422, "VALIDATION_ERROR")
    assert error["details"]["url"] == ["Receivers must use https."]
    assert create(api, url=PUBLIC_URL).status_code == 201


def test_plain_http_receiver_is_allowed_outside_production(api, settings):
    settings.PRODUCTION = False
    assert create(api, url="http://93.184.216.34/hooks").status_code == 201


@pytest.mark.parametrize(
    "url",
    [
        "https://127.0.0.1/hooks",
        "https://127.8.9.10:8443/hooks",
        "https://localhost/hooks",
        "https://[::1]/hooks",
        "https://10.1.2.3/hooks",
        "https://172.16.0.1/hooks",
        "https://192.168.1.20/hooks",
        "https://169.254.169.254/latest/meta-data",  # cloud metadata, link-local
        "https://[fe80::1]/hooks",
        "https://[fd00::1]/hooks",
        "https://[::ffff:127.0.0.1]/hooks",
        "https://0.0.0.0/hooks",
        "https://100.64.0.1/hooks",  # carrier-grade NAT
    ],
)
def test_private_loopback_and_link_local_targets_are_422(api, production_rules, url):
    error = error_of(create(api, url=url), 422, "VALIDATION_ERROR")
    assert "url" in error["details"]
    assert not WebhookSubscription.objects.exists()


def test_private_targets_are_allowed_when_the_setting_says_so(api, production_rules):
    production_rules.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    assert create(api, url="https://127.0.0.1/hooks").status_code == 201
    assert create(api, url="https://10.1.2.3/hooks").status_code == 201


def test_a_name_that_does_not_resolve_is_422_under_production_rules(api, production_rules):
    error = error_of(create(api, url="https://no-such-host.invalid/hooks"), 422, "VALIDATION_ERROR")
    assert "does not resolve" in error["details"]["url"][0]


@pytest.mark.parametrize(
    "events",
    [["order.exploded"], ["order.created", "nope"], ["webhook.test"], ["ORDER.CREATED"], [""], [7]],
)
def test_unknown_event_names_are_422(api, events):
    error = error_of(create(api, events=events), 422, "VALIDATION_ERROR")
    assert "events" in error["details"]
    assert not WebhookSubscription.objects.exists()


@pytest.mark.parametrize(
    "body", [{"url": PUBLIC_URL, "events": []}, {"url": PUBLIC_URL}, {"events": ["order.created"]}]
)
def test_missing_or_empty_fields_are_422(api, body):
    error = error_of(api.post("/api/v1/webhooks", body, content_type="application/json"), 422, "VALIDATION_ERROR")
    assert error["details"]


def test_events_must_be_a_list(api):
    response = api.post(
        "/api/v1/webhooks", {"url": PUBLIC_URL, "events": "order.created"}, content_type="application/json"
    )
    error_of(response, 422, "VALIDATION_ERROR")


def test_malformed_json_is_400(api):
    response = api.post("/api/v1/webhooks", "{not json", content_type="application/json")
    error_of(response, 400, "MALFORMED_REQUEST")


# ----------------------------------------------------------------------------- list


def test_list_holds_all_the_owners_subscriptions_and_nothing_else(api, other_api, owner):
    first = create(api).json()["data"]
    second = create(api, events=["session.started"]).json()["data"]
    create(other_api)
    colleague_api = token_client_for(factories.AgentFactory(owner=owner))  # same owner: same list
    for client in (api, colleague_api):
        response = client.get("/api/v1/webhooks")
        assert response.status_code == 200
        assert response.json() == {"data": [first, second]}


def test_list_shows_the_delivery_state(api, owner):
    data = create(api).json()["data"]
    WebhookSubscription.objects.filter(pk=data["id"]).update(active=False, failure_count=10)
    [listed] = api.get("/api/v1/webhooks").json()["data"]
    assert (listed["active"], listed["failure_count"]) == (False, 10)


# ----------------------------------------------------------------------------- delete


def test_delete_removes_permanently(api):
    subscription_id = create(api).json()["data"]["id"]
    response = api.delete(f"/api/v1/webhooks/{subscription_id}")
    assert response.status_code == 204 and response.content == b""
    assert not WebhookSubscription.objects.filter(pk=subscription_id).exists()
    assert api.get("/api/v1/webhooks").json() == {"data": []}
    error_of(api.delete(f"/api/v1/webhooks/{subscription_id}"), 404, "NOT_FOUND")


def test_delete_of_another_owners_subscription_is_404_and_keeps_it(api, other_api):
    theirs = create(other_api).json()["data"]["id"]
    error_of(api.delete(f"/api/v1/webhooks/{theirs}"), 404, "NOT_FOUND")
    assert WebhookSubscription.objects.filter(pk=theirs).exists()


@pytest.mark.parametrize("path", ["/api/v1/webhooks/987654321", "/api/v1/webhooks/abc", "/api/v1/webhooks/-1"])
def test_delete_of_an_unknown_subscription_is_404(api, path):
    error_of(api.delete(path), 404, "NOT_FOUND")


def test_delete_without_a_token_is_401(api):
    subscription_id = create(api).json()["data"]["id"]
    error_of(Client().delete(f"/api/v1/webhooks/{subscription_id}"), 401, "UNAUTHENTICATED")
    assert WebhookSubscription.objects.filter(pk=subscription_id).exists()


def test_webhooks_of_an_ownerless_agent_are_403(db):
    api = token_client_for(factories.AgentFactory(owner=None))
    for response in (api.get("/api/v1/webhooks"), create(api), api.delete("/api/v1/webhooks/1")):
        error = error_of(response, 403, "FORBIDDEN")
        assert error["message"] == "Token not associated with an owner"


# ----------------------------------------------------------------------------- cross-owner 404s


def test_every_token_route_keeps_another_owners_resources_out_of_reach(api, other_api, other_business):
    """The owner-scoped routes given another owner's ids: 404 where an id is in the path, nothing
    of theirs in any list, and their business as an order filter matches nothing."""
    theirs = create(other_api).json()["data"]
    error_of(api.delete(f"/api/v1/webhooks/{theirs['id']}"), 404, "NOT_FOUND")
    assert theirs["id"] not in [s["id"] for s in api.get("/api/v1/webhooks").json()["data"]]
    orders = api.get(f"/api/v1/orders?business={other_business.pk}")
    assert orders.status_code == 200 and orders.json()["results"] == []
    assert other_api.get("/api/v1/webhooks").json()["data"] == [theirs]


@pytest.mark.parametrize(
    "method,path",
    [("get", "/api/v1/webhooks/1"), ("put", "/api/v1/webhooks"), ("patch", "/api/v1/webhooks/1")],
)
def test_unsupported_methods_are_405(api, method, path):
    response = getattr(api, method)(path, {}, content_type="application/json")
    error_of(response, 405, "METHOD_NOT_ALLOWED")


def test_unknown_token_route_is_404_in_the_token_envelope(api):
    error = error_of(api.get("/api/v1/nothing-here"), 404, "NOT_FOUND")
    assert "request_id" not in error
