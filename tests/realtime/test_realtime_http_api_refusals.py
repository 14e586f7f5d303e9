"""The Pusher HTTP API's read side refuses what Pusher refuses, through the Django test client with
requests signed by the official `pusher` library: 401 unsigned or badly signed, 404 for another
app id, 400 for parameters Pusher rejects (user counts and user lists outside presence channels,
unknown info attributes, invalid names), 405 for the wrong method. The answers of a live server
are in test_realtime_http_api_live.py."""

import pusher
import pytest
from pusher.http import GET, POST, Request

pytestmark = pytest.mark.django_db


def signed(settings, method: str, path: str, params: dict | None = None, secret: str | None = None) -> Request:
    library = pusher.Pusher(
        app_id=str(settings.REALTIME_APP_ID),
        key=settings.REALTIME_APP_KEY,
        secret=secret or settings.REALTIME_APP_SECRET,
    )
    return Request(library._pusher_client, method, path, params or {})


def send(client, request: Request):
    url = f"{request.path}?{request.query_string}"
    if request.method == GET:
        return client.get(url)
    return client.post(url, request.body, content_type="application/json")


@pytest.fixture
def app_path(settings):
    return f"/apps/{settings.REALTIME_APP_ID}"


def test_an_unoccupied_app_answers_with_nothing_subscribed(client, settings, app_path):
    response = send(client, signed(settings, GET, f"{app_path}/channels"))
    assert response.status_code == 200, response.content
    assert response.json() == {"channels": {}}
    one = send(client, signed(settings, GET, f"{app_path}/channels/presence-owner.1", {"info": "user_count"}))
    assert one.json() == {"occupied": False, "user_count": 0}
    users = send(client, signed(settings, GET, f"{app_path}/channels/presence-owner.1/users"))
    assert users.json() == {"users": []}


@pytest.mark.parametrize(
    "path",
    ["/channels", "/channels/news", "/channels/presence-owner.1/users"],
)
def test_unsigned_and_badly_signed_reads_are_401(client, settings, app_path, path):
    unsigned = client.get(f"{app_path}{path}")
    assert unsigned.status_code == 401 and unsigned.json()["error"]["code"] == "UNAUTHENTICATED"
    wrong_secret = send(client, signed(settings, GET, f"{app_path}{path}", secret="not-the-secret"))
    assert wrong_secret.status_code == 401
    assert "auth_signature" in wrong_secret.json()["error"]["message"]


def test_a_signature_for_another_path_is_401(client, settings, app_path):
    request = signed(settings, GET, f"{app_path}/channels/news")
    response = client.get(f"{app_path}/channels/private-agent.1?{request.query_string}")
    assert response.status_code == 401


def test_another_app_id_is_404(client, settings):
    request = signed(settings, GET, "/apps/999999/channels")
    assert send(client, request).status_code == 404
    terminate = signed(settings, POST, "/apps/999999/users/kiosk.1/terminate_connections")
    assert send(client, terminate).status_code == 404


@pytest.mark.parametrize(
    ("path", "params", "message"),
    [
        ("/channels/news/users", {}, "presence channels"),
        ("/channels/private-agent.1/users", {}, "presence channels"),
        ("/channels", {"info": "user_count"}, "presence"),
        ("/channels", {"info": "user_count", "filter_by_prefix": "private-"}, "presence"),
        ("/channels", {"info": "subscription_count"}, "Unknown info"),
        ("/channels/news", {"info": "user_count"}, "presence channels"),
        ("/channels/news", {"info": "occupied,cache"}, "Unknown info"),
        ("/channels/has%20space", {}, "Invalid channel name"),
    ],
    ids=[
        "users of a public channel",
        "users of a private channel",
        "user_count without a prefix",
        "user_count for private channels",
        "unknown list attribute",
        "user_count of a public channel",
        "unknown channel attribute",
        "invalid name",
    ],
)
def test_parameters_pusher_rejects_are_400(client, settings, app_path, path, params, message):
    response = send(client, signed(settings, GET, f"{app_path}{path}".replace("%20", " "), params))
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "MALFORMED_REQUEST"
    assert message in response.json()["error"]["message"]


def test_terminate_refuses_an_invalid_user_id_and_a_tampered_body(client, settings, app_path):
    bad_id = signed(settings, POST, f"{app_path}/users/a b/terminate_connections")
    assert send(client, bad_id).status_code == 400
    good = signed(settings, POST, f"{app_path}/users/kiosk.1/terminate_connections")
    tampered = client.post(
        f"{good.path}?{good.query_string}", b'{"other": 1}', content_type="application/json"
    )  # body_md5 no longer matches
    assert tampered.status_code == 401
    assert send(client, good).status_code == 200


def test_reads_are_get_only_and_terminate_is_post_only(client, settings, app_path):
    post_to_read = signed(settings, POST, f"{app_path}/channels")
    assert send(client, post_to_read).status_code == 405
    get_terminate = signed(settings, GET, f"{app_path}/users/kiosk.1/terminate_connections")
    assert send(client, get_terminate).status_code == 405
