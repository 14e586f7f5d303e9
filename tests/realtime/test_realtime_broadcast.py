"""The broadcast API: sent through the real channel layer (channels-redis when REDIS_URL is set)
after commit, never for a rollback, and a broken layer never breaks the request. Also the Pusher
HTTP API endpoints through the Django test client."""

import logging

import pytest
from django.db import transaction
from pusher.http import Request

from apps.realtime.broadcast import broadcast
from tests.support.realtime import library_request


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_it_is_sent_at_once(listener):
    broadcast(["private-agent.1"], "SessionIncoming", {"session": {"id": "ses_x"}})
    message = listener()
    assert message["type"] == "pusher.fanout"
    assert (message["channels"], message["event"]) == (["private-agent.1"], "SessionIncoming")
    assert message["data"] == {"session": {"id": "ses_x"}}


def test_inside_a_transaction_it_waits_for_the_commit(db, monkeypatch, django_capture_on_commit_callbacks):
    sent = []
    monkeypatch.setattr("apps.realtime.broadcast.send_now", sent.append)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        broadcast(["private-agent.1"], "SessionIncoming", {})
    assert sent == []  # not yet
    for callback in callbacks:
        callback()
    [message] = sent
    assert message["channels"] == ["private-agent.1"] and message["type"] == "pusher.fanout"


@pytest.mark.django_db(transaction=True)
def test_nothing_is_sent_for_a_rolled_back_change(listener):
    with pytest.raises(RuntimeError), transaction.atomic():
        broadcast(["private-agent.1"], "SessionIncoming", {})
        raise RuntimeError("the change fails")
    assert listener(0.3) is None


@pytest.mark.django_db(transaction=True)
def test_a_broken_layer_is_logged_and_swallowed(monkeypatch, caplog, kiosk, kiosk_client):
    class DownLayer:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is down")

    monkeypatch.setattr("apps.realtime.broadcast.get_channel_layer", lambda: DownLayer())
    with caplog.at_level(logging.ERROR, logger="apps.realtime.broadcast"):
        broadcast(["private-agent.1", "private-agent.2"], "SessionIncoming", {})
        response = kiosk_client.post(
            "/api/public/sessions/start",
            {"device_id": str(kiosk.device_id), "customer_locale": "en-US"},
            content_type="application/json",
        )
    assert response.status_code == 201  # the request does not notice
    assert "broadcast" in caplog.text


def test_invalid_channel_names_are_a_programming_error(db):
    with pytest.raises(ValueError):
        broadcast(["has space"], "E", {})


def post_signed(client, request: Request, path: str | None = None):
    query = "&".join(f"{key}={value}" for key, value in request.query_params.items())
    return client.post(f"{path or request.path}?{query}", request.body, content_type="application/json")


def test_http_api_events_are_published(db, client, settings, listener):
    request = library_request(settings, {"name": "Hello", "channels": ["private-agent.1"], "data": '{"a":1}'})
    response = post_signed(client, request)
    assert response.status_code == 200, response.content
    assert response.json() == {}
    message = listener()
    assert (message["channels"], message["event"], message["data"]) == (["private-agent.1"], "Hello", '{"a":1}')


def test_http_api_batch_events_are_published(db, client, settings, listener):
    batch = [{"name": f"E{n}", "channel": "private-agent.1", "data": "{}"} for n in range(2)]
    request = library_request(settings, {"batch": batch}, "batch_events")
    response = post_signed(client, request)
    assert response.status_code == 200, response.content
    assert [message["event"] for message in listener(count=2)] == ["E0", "E1"]


def test_http_api_excludes_the_socket_that_caused_the_event(db, client, settings, listener):
    body = {"name": "E", "channels": ["private-agent.1"], "data": "{}", "socket_id": "1.2"}
    assert post_signed(client, library_request(settings, body)).status_code == 200
    assert listener()["skip"] == "1.2"


def test_http_api_refusals(db, client, settings):
    good = library_request(settings, {"name": "E", "channels": ["news"], "data": "{}"})
    unsigned = client.post(good.path, good.body, content_type="application/json")
    assert unsigned.status_code == 401 and unsigned.json()["error"]["code"] == "UNAUTHENTICATED"
    assert post_signed(client, good, path="/apps/not-our-app/events").status_code == 404
    too_many = library_request(settings, {"name": "E", "channels": [f"c{n}" for n in range(101)], "data": "{}"})
    assert post_signed(client, too_many).status_code == 422
    not_a_string = library_request(settings, {"name": "E", "channels": ["news"], "data": {"a": 1}})
    assert post_signed(client, not_a_string).status_code == 422
