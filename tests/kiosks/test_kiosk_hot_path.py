"""The kiosk hot path (apps/kiosk_app/hot_path.py): the status poll and the heartbeat are answered
by a lean ASGI route in front of Django. Through the real server (daphne, the Procfile's `web`
command) it answers exactly what Django answers, header for header and byte for byte, and keeps
the whole contract: the 401 envelope, the 429 with its headers, the request id, the heartbeat's
effect, a status that a transition invalidates at once. The suite runs this file on PostgreSQL +
Redis and on the embedded default (SQLite, no Redis) alike."""

import sqlite3
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
import requests
from asgiref.sync import async_to_sync
from django.conf import settings
from django.core.cache import caches
from django.utils import timezone

from apps.core.models import DomainEvent
from apps.kiosks.models import Kiosk
from tests import factories
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne

pytestmark = [pytest.mark.live, pytest.mark.django_db(transaction=True)]

ORIGIN = "http://localhost:5173"  # the kiosk app's origin in the test settings (CORS)
HEARTBEAT = "/api/public/kiosks/heartbeat"


def _poll(session) -> str:
    return f"/api/public/sessions/{session.public_id}/status"


def _headers(kiosk, **extra) -> dict:
    return {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token, **extra}


class Server:
    """A web server on the worker's live database (tests/support/live.py): the worker's shared one,
    or one of the test's own (PostgreSQL: the live database itself; SQLite: a copy of its file,
    which `kiosk_row` reads back)."""

    def __init__(self, live, database_file: Path | None = None):
        self.live, self.database_file = live, database_file
        self.base = self.live.base_url
        self.log_from = live.log_path.stat().st_size  # the shared server's log holds earlier tests' too

    def log(self) -> str:
        """The server's log since this test took it."""
        with self.live.log_path.open("rb") as log:
            log.seek(self.log_from)
            return log.read().decode(errors="replace")

    def call(self, method: str, path: str, headers: dict) -> requests.Response:
        return requests.request(method, f"{self.base}{path}", headers=headers, timeout=10)

    def kiosk_row(self, kiosk) -> tuple[bool, object, int]:
        """(online, last_seen_at, number of the owner's kiosk.online events) as the server wrote them."""
        owner_id = kiosk.business.owner_id
        if self.database_file is None:
            row = Kiosk.objects.get(pk=kiosk.pk)
            events = DomainEvent.objects.filter(name="kiosk.online", owner_id=owner_id).count()
            return row.online, row.last_seen_at, events
        with sqlite3.connect(self.database_file) as db:
            online, seen = db.execute(
                f"SELECT online, last_seen_at FROM {Kiosk._meta.db_table} WHERE id = ?", [kiosk.pk]
            ).fetchone()
            (events,) = db.execute(
                f"SELECT count(*) FROM {DomainEvent._meta.db_table} WHERE name = 'kiosk.online' AND owner_id = ?",
                [owner_id],
            ).fetchone()
        return bool(online), seen, events


@pytest.fixture(autouse=True)
def _rows_where_the_servers_read(request):
    """Every row a test with `servers` makes goes to the worker's live database (a fresh owner each
    time), so the shared server sees it, and an own server started after them too. The test of the
    route in process keeps the test database (its own thread reads Django's default connection)."""
    if "servers" in request.fixturenames:
        request.getfixturevalue("live_db")


@pytest.fixture
def servers(tmp_path, request):
    """servers(name, **env) -> a Server, started after the test's rows exist: with no `env` the
    worker's shared server (the default settings); with `env` (another hot path setting, a tighter
    rate limit) one of the test's own, stopped at the end."""
    own = []

    def start(name: str = "hot", **env: str) -> Server:
        if not env:
            return Server(request.getfixturevalue("shared_live_server"))
        workdir = tmp_path / f"{name}-{len(own)}"
        database_url = database_url_for_child(workdir)
        live = start_daphne(workdir, database_url=database_url, **env)
        own.append(live)
        return Server(live, workdir / "var" / "db.sqlite3" if database_url is None else None)

    yield start
    for live in own:
        stop_daphne(live)


def _wire(response: requests.Response) -> tuple[int, bytes, list]:
    """Status, body bytes and every header as sent (but the server's Date and Server)."""
    headers = sorted(
        (name.lower(), value) for name, value in response.raw.headers.items() if name.lower() not in {"date", "server"}
    )
    return response.status_code, response.content, headers


def test_the_lean_route_answers_what_django_answers(servers, business, agent):
    kiosk = factories.KioskFactory(business=business)
    other = factories.KioskFactory(business=business)
    pending = factories.SessionFactory(kiosk=kiosk, status="pending")
    accepted = factories.SessionFactory(
        kiosk=factories.KioskFactory(business=business), status="active", agent=agent, accepted_at=timezone.now()
    )
    other_kiosk_session = factories.SessionFactory(kiosk=other, status="pending")
    hot, plain = servers(), servers("plain", KIOSK_HOT_PATH="false")
    rid = {"X-Request-Id": "hot-path-parity.1"}
    cases = [
        ("GET", _poll(pending), _headers(kiosk, **rid)),
        ("GET", _poll(pending), _headers(kiosk, Origin=ORIGIN, **rid)),  # the kiosk app's CORS
        ("GET", _poll(pending), _headers(kiosk, Origin="https://elsewhere.example", **rid)),
        ("GET", _poll(pending), _headers(kiosk, Accept="application/json", **rid)),
        ("GET", _poll(accepted), _headers(accepted.kiosk, **rid)),  # with its agent
        ("GET", _poll(pending), rid),  # no device headers
        ("GET", _poll(pending), {"X-Device-Id": "not-a-uuid", "X-Device-Token": "x", **rid}),
        ("GET", _poll(pending), {**_headers(kiosk), "X-Device-Token": "wrong", **rid}),
        ("GET", _poll(pending), {"X-Device-Id": str(uuid.uuid4()), "X-Device-Token": "x", **rid}),
        ("GET", _poll(other_kiosk_session), _headers(kiosk, **rid)),  # another kiosk's: 404
        ("GET", "/api/public/sessions/ses_nosuchsession/status", _headers(kiosk, **rid)),
        ("GET", f"{_poll(pending)}?x=1", _headers(kiosk, **rid)),  # Django's (a query string)
        ("GET", _poll(pending), _headers(kiosk, Accept="text/html", **rid)),  # Django's 406
        ("POST", _poll(pending), _headers(kiosk, **rid)),  # Django's 405
        ("POST", HEARTBEAT, _headers(kiosk, **rid)),
        ("POST", HEARTBEAT, _headers(kiosk, Origin=ORIGIN, **rid)),
        ("POST", HEARTBEAT, {**_headers(kiosk), "X-Device-Token": "wrong", **rid}),
        ("POST", HEARTBEAT, rid),
    ]
    for method, path, headers in cases:
        hot_answer, plain_answer = hot.call(method, path, headers), plain.call(method, path, headers)
        assert _wire(hot_answer) == _wire(plain_answer), (method, path, headers)
    # a request id of the server's own making: a fresh one per request, in header and body alike
    first, second = hot.call("GET", _poll(pending), {}), hot.call("GET", _poll(pending), {})
    assert first.status_code == 401 and first.json()["error"]["code"] == "DEVICE_TOKEN_INVALID"
    assert first.headers["WWW-Authenticate"] == "Device"
    assert first.json()["error"]["request_id"] == first.headers["X-Request-Id"]
    assert len(first.headers["X-Request-Id"]) == 32 and first.headers["X-Request-Id"] != second.headers["X-Request-Id"]
    answer = hot.call("GET", _poll(pending), _headers(kiosk, **{"X-Request-Id": "bad id\twith tab"}))
    assert answer.status_code == 200 and len(answer.headers["X-Request-Id"]) == 32


def test_the_rate_limit_answers_429_with_its_headers(servers, kiosk, business):
    session = factories.SessionFactory(kiosk=kiosk, status="pending")
    hot = servers(THROTTLE_KIOSK="3/min")
    for method, path in (("GET", _poll(session)), ("POST", HEARTBEAT), ("GET", _poll(session))):
        assert hot.call(method, path, _headers(kiosk)).status_code == 200
    for method, path in (("GET", _poll(session)), ("POST", HEARTBEAT)):
        refused = hot.call(method, path, _headers(kiosk, **{"X-Request-Id": "over.limit"}))
        assert refused.status_code == 429
        assert refused.json() == {
            "error": {
                "code": "RATE_LIMITED",
                "message": f"Too many requests. Retry in {refused.headers['Retry-After']} seconds.",
                "request_id": "over.limit",
            }
        }
        assert 1 <= int(refused.headers["Retry-After"]) <= 60 and refused.headers["X-Request-Id"] == "over.limit"
    # a wrong token counts in a bucket of its own: still a 401, and the kiosk's limit is its own
    wrong = hot.call("GET", _poll(session), {**_headers(kiosk), "X-Device-Token": "wrong"})
    assert wrong.status_code == 401


@pytest.mark.skipif(not settings.REDIS_URL, reason="Redis's scripts: the embedded default counts in memory")
def test_a_redis_that_forgot_the_round_trips_script_is_given_it_again(servers, kiosk):
    """A restarted or failed-over Redis has no scripts: the request's one round trip
    (apps.core.cache.GET_MANY_AND_COUNT) loads it again and still reads and counts."""
    session = factories.SessionFactory(kiosk=kiosk, status="pending")
    hot = servers(THROTTLE_KIOSK="3/min")
    assert hot.call("GET", _poll(session), _headers(kiosk)).status_code == 200
    caches["default"].client.script_flush()
    assert hot.call("GET", _poll(session), _headers(kiosk)).json()["status"] == "pending"
    assert hot.call("POST", HEARTBEAT, _headers(kiosk)).status_code == 200
    assert hot.call("POST", HEARTBEAT, _headers(kiosk)).status_code == 429  # the fourth in the window


def test_the_heartbeat_marks_an_offline_kiosk_online_with_one_event(servers, kiosk):
    Kiosk.objects.filter(pk=kiosk.pk).update(online=False, last_seen_at=timezone.now() - timedelta(minutes=5))
    hot = servers()
    assert hot.kiosk_row(kiosk)[0] is False
    for _ in range(3):
        answer = hot.call("POST", HEARTBEAT, _headers(kiosk))
        assert answer.status_code == 200 and answer.content == b'{"ok":true}'
    online, last_seen, events = hot.kiosk_row(kiosk)
    assert online is True and events == 1
    assert last_seen is not None


def test_a_status_changed_by_a_transition_is_never_served_stale(servers, kiosk):
    session = factories.SessionFactory(kiosk=kiosk, status="pending")
    hot = servers()
    for _ in range(3):  # the copy is stored and served
        assert hot.call("GET", _poll(session), _headers(kiosk)).json()["status"] == "pending"
    cancelled = hot.call("POST", f"/api/public/sessions/{session.public_id}/cancel", _headers(kiosk))
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "abandoned"
    polled = hot.call("GET", _poll(session), _headers(kiosk))
    assert polled.status_code == 200 and polled.content == cancelled.content


def test_steady_requests_are_answered_without_django(kiosk):
    """The route itself answers (in process: Django would fail the test), from the copy too."""
    from apps.kiosk_app.hot_path import KioskHotPath

    session = factories.SessionFactory(kiosk=kiosk, status="pending")

    async def django(scope, receive, send):
        raise AssertionError(f"handed to Django: {scope['method']} {scope['path']}")

    app = KioskHotPath(django)
    device = [(b"x-device-id", str(kiosk.device_id).encode()), (b"x-device-token", kiosk.raw_token.encode())]

    def call(method: str, path: str, headers: list) -> tuple[int, bytes]:
        sent = []

        async def send(message):
            sent.append(message)

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        scope = {"type": "http", "method": method, "path": path, "query_string": b"", "scheme": "http"}
        async_to_sync(app)({**scope, "headers": [(b"host", b"testserver"), *headers]}, receive, send)
        return sent[0]["status"], sent[1]["body"]

    for _ in range(3):  # a miss, then the copy
        status, body = call("GET", _poll(session), device)
        assert status == 200 and b'"status":"pending"' in body
    assert call("POST", HEARTBEAT, device) == (200, b'{"ok":true}')
    assert call("GET", _poll(session), [])[0] == 401


def _without_cookie(response: requests.Response) -> tuple[int, bytes, list]:
    status, content, headers = _wire(response)
    return status, content, [(name, value) for name, value in headers if name != "set-cookie"]


def test_a_request_carrying_a_session_cookie_is_answered_as_django_answers_it(servers, kiosk, agent, client):
    """A browser signed in to the agent dashboard or the panel on the kiosk's host sends its
    `app_session` cookie with the kiosk's calls: the session middleware reads and saves that
    session (a database call), which the route runs in a worker thread as Django does; on the
    event loop it was a 500 (SynchronousOnlyOperation) with tracebacks in the log."""
    session = factories.SessionFactory(kiosk=kiosk, status="pending")
    client.force_login(agent)
    signed_in = client.cookies[settings.SESSION_COOKIE_NAME].value
    hot, plain = servers(), servers("plain", KIOSK_HOT_PATH="false")
    stale = "a" * 32  # no such session
    for cookie in (stale, signed_in):
        cases = [
            ("POST", HEARTBEAT, {}),  # no device headers
            ("GET", _poll(session), {}),
            ("POST", HEARTBEAT, _headers(kiosk)),
            ("GET", _poll(session), _headers(kiosk)),
        ]
        for method, path, headers in cases:
            headers = {**headers, "Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}", "X-Request-Id": "cookie.1"}
            hot_answer, plain_answer = hot.call(method, path, headers), plain.call(method, path, headers)
            assert hot_answer.status_code == (401 if "X-Device-Id" not in headers else 200), hot_answer.content
            assert _without_cookie(hot_answer) == _without_cookie(plain_answer), (method, path, cookie)
            refreshed = hot_answer.cookies[settings.SESSION_COOKIE_NAME]  # SESSION_SAVE_EVERY_REQUEST
            assert (refreshed == signed_in) is (cookie == signed_in)
    assert "Traceback" not in hot.log() and "SynchronousOnlyOperation" not in hot.log()
