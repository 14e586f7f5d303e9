"""X-Forwarded-Proto is believed only from TRUSTED_PROXIES (the client address rule in
apps.core.client_address applied to the scheme too): with TRUST_PROXY on (production's default), a
client reaching a web process directly over plain HTTP used to be taken for an https one by saying
so. The rule is applied to every ASGI scope (config/asgi.py), before Django, the kiosk hot path and
the WebSocket consumer see the headers."""

import json
import re

import pytest
import requests

from apps.core import client_address
from apps.core.client_address import without_untrusted_proxy_headers
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne

PROXY = "10.0.0.2"


def scope(peer: str, *headers: tuple[bytes, bytes], kind: str = "http") -> dict:
    return {"type": kind, "client": (peer, 50000), "headers": [(b"host", b"example.com"), *headers]}


@pytest.mark.parametrize("kind", ["http", "websocket"])
def test_from_a_peer_that_is_not_a_trusted_proxy_the_header_is_removed(settings, kind):
    settings.TRUSTED_PROXIES = [PROXY]
    before = scope("192.0.2.10", (b"X-Forwarded-Proto", b"https"), (b"x-forwarded-for", b"1.2.3.4"), kind=kind)
    after = without_untrusted_proxy_headers(before)
    assert after["headers"] == [(b"host", b"example.com"), (b"x-forwarded-for", b"1.2.3.4")]
    assert before["headers"][1] == (b"X-Forwarded-Proto", b"https")  # the server's own scope is not changed
    assert after["client"] == before["client"] and after["type"] == kind


@pytest.mark.parametrize("peer", [PROXY, "10.0.0.9", "::ffff:10.0.0.2"])
def test_from_a_trusted_proxy_it_stays(settings, peer):
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    original = scope(peer, (b"x-forwarded-proto", b"https"))
    assert without_untrusted_proxy_headers(original) is original


def test_without_trusted_proxies_no_peer_may_send_it(settings):
    settings.TRUSTED_PROXIES = []
    assert without_untrusted_proxy_headers(scope("127.0.0.1", (b"x-forwarded-proto", b"https")))["headers"] == [
        (b"host", b"example.com")
    ]


def test_a_scope_without_the_header_or_without_headers_is_passed_as_it_is(settings):
    settings.TRUSTED_PROXIES = []
    plain = scope("192.0.2.10")
    assert without_untrusted_proxy_headers(plain) is plain
    lifespan = {"type": "lifespan"}
    assert without_untrusted_proxy_headers(lifespan) is lifespan


def test_an_untrusted_sender_is_reported_once_in_production(settings, caplog, monkeypatch):
    monkeypatch.setattr(client_address, "_warned", False)
    settings.PRODUCTION, settings.TRUSTED_PROXIES = True, []
    for _ in range(3):
        without_untrusted_proxy_headers(scope("192.0.2.10", (b"x-forwarded-proto", b"https")))
    warnings = [r.getMessage() for r in caplog.records if "not in TRUSTED_PROXIES" in r.getMessage()]
    assert len(warnings) == 1 and "X-Forwarded-Proto from 192.0.2.10" in warnings[0]


def force_tls_of_agent_page(base_url: str) -> bool:
    """The agent page says whether the request was https (HttpRequest.is_secure) in its config."""
    response = requests.get(f"{base_url}/agent/", headers={"X-Forwarded-Proto": "https"}, timeout=10)
    assert response.status_code == 200
    match = re.search(r'<script id="agent-config" type="application/json">(.*?)</script>', response.text)
    return json.loads(match.group(1))["forceTLS"]


@pytest.mark.live
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("trusted", "secure"), [("", False), ("192.0.2.1", False), ("127.0.0.1", True)])
def test_a_live_server_believes_https_only_from_a_trusted_proxy(tmp_path, trusted, secure):
    server = start_daphne(
        tmp_path, database_url=database_url_for_child(tmp_path), TRUST_PROXY="true", TRUSTED_PROXIES=trusted
    )
    try:
        assert force_tls_of_agent_page(server.base_url) is secure
    finally:
        stop_daphne(server)
