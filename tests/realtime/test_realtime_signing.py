"""Pusher's signatures: the published channel-auth vector, presence signing, and HTTP API request
verification against what the official `pusher` library sends; channel names and frames."""

import hashlib
import json

import pusher
import pytest
from pusher.http import Request

from apps.realtime import protocol, signing
from tests.support.realtime import library_request

VECTOR_KEY, VECTOR_SECRET = "278d425bdf160c739803", "7ad3773142a6692b25b8"


def test_private_channel_auth_matches_the_published_vector():
    auth = signing.channel_auth("1234.1234", "private-foobar", key=VECTOR_KEY, secret=VECTOR_SECRET)
    assert auth == f"{VECTOR_KEY}:58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4"


def test_presence_auth_matches_the_official_library_over_the_exact_channel_data():
    library = pusher.Pusher(app_id="1", key=VECTOR_KEY, secret=VECTOR_SECRET)
    member = {"user_id": "kiosk.12", "user_info": {"id": "12", "name": "Front", "location": "Door"}}
    theirs = library.authenticate(channel="presence-owner.3", socket_id="1234.1234", custom_data=member)
    ours = signing.channel_auth(
        "1234.1234", "presence-owner.3", theirs["channel_data"], key=VECTOR_KEY, secret=VECTOR_SECRET
    )
    assert ours == theirs["auth"]


def test_channel_auth_valid_refuses_other_sockets_channels_and_junk(settings):
    good = signing.channel_auth("1.2", "private-agent.1")
    assert signing.channel_auth_valid(good, "1.2", "private-agent.1")
    assert not signing.channel_auth_valid(good, "1.3", "private-agent.1")
    assert not signing.channel_auth_valid(good, "1.2", "private-agent.2")
    assert not signing.channel_auth_valid(None, "1.2", "private-agent.1")
    assert not signing.channel_auth_valid(good.replace(settings.REALTIME_APP_KEY, "other"), "1.2", "private-agent.1")


def verify(request: Request, **overrides):
    params = {**request.query_params, **overrides.pop("params", {})}
    arguments = {"method": "POST", "path": request.path, "params": params, "body": request.body, **overrides}
    return signing.http_api_request_error(**arguments)


def test_a_request_signed_by_the_official_library_verifies(settings):
    request = library_request(settings, {"name": "E", "channels": ["news"], "data": "{}"})
    assert verify(request) is None


def test_upper_case_parameter_names_are_signed_lower_case(settings):
    request = library_request(settings, {"name": "E", "channels": ["news"], "data": "{}"})
    params = {name.upper() if name == "body_md5" else name: value for name, value in request.query_params.items()}
    assert signing.http_api_request_error(method="POST", path=request.path, params=params, body=request.body) is None


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"params": {"auth_signature": "0" * 64}}, "Invalid auth_signature"),
        ({"body": b'{"name":"E","channels":["news"],"data":"{\\"evil\\":1}"}'}, "body_md5"),
        ({"params": {"auth_key": "someone-else"}}, "Unknown auth_key"),
        ({"params": {"extra": "added-after-signing"}}, "Invalid auth_signature"),
        ({"path": "/apps/999/events"}, "Invalid auth_signature"),
        ({"skew": 601}, "600 seconds"),
        ({"skew": -601}, "600 seconds"),
        ({"params": {"auth_timestamp": "soon"}}, "auth_timestamp"),
    ],
    ids=["signature", "body", "key", "extra param", "path", "clock ahead", "clock behind", "timestamp"],
)
def test_tampered_or_stale_requests_are_refused(settings, change, reason):
    request = library_request(settings, {"name": "E", "channels": ["news"], "data": "{}"})
    if "skew" in change:
        change = {"now": int(request.query_params["auth_timestamp"]) + change["skew"]}
    error = verify(request, **change)
    assert error is not None and reason in error


def test_the_skew_allowance_is_600_seconds(settings):
    request = library_request(settings, {"name": "E", "channels": ["news"], "data": "{}"})
    signed_at = int(request.query_params["auth_timestamp"])
    assert verify(request, now=signed_at + 599) is None
    assert verify(request, now=signed_at - 599) is None


def test_body_md5_is_of_the_raw_body(settings):
    request = library_request(settings, {"name": "E", "channels": ["news"], "data": "{}"})
    assert request.query_params["body_md5"] == hashlib.md5(request.body).hexdigest()


@pytest.mark.parametrize(("name", "valid"), [("private-a.1", True), ("a b", False), ("", False), ("x" * 201, False)])
def test_channel_name_rules(name, valid):
    assert protocol.valid_channel_name(name) is valid


def test_frames_carry_data_as_a_json_string_and_socket_ids_are_digits_dot_digits():
    message = json.loads(protocol.frame("OrderUpdated", {"total_cents": 100}, "private-kiosk.1"))
    assert message == {"event": "OrderUpdated", "channel": "private-kiosk.1", "data": '{"total_cents":100}'}
    assert json.loads(protocol.frame("E", '{"raw":true}'))["data"] == '{"raw":true}'  # strings pass as they are
    assert all(protocol.SOCKET_ID_RE.match(protocol.new_socket_id()) for _ in range(100))
