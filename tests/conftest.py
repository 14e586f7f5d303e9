"""Shared fixtures: tenants built from factories and one client per API surface.

Clients speak to the real URL stack: the agent client signs in through POST /api/login and
echoes the XSRF-TOKEN cookie on mutating calls, as a browser dashboard would.
"""

import contextlib
import os
from collections.abc import Iterator
from datetime import timedelta

import hypothesis
import pytest
import time_machine
from django.conf import settings
from django.core.cache import cache
from django.core.servers.basehttp import WSGIServer
from django.db import transaction
from django.test import Client, override_settings
from django.test.testcases import LiveServerThread
from django.utils import timezone

from tests import factories
from tests.support.database import flush_only_written_tables, remember_flush_counts
from tests.support.receivers import Receiver
from tests.support.template_database import scratch_copy, setup_test_database, teardown_test_database

pytest_plugins = [
    "tests.support.payments",
    "tests.support.browser",
    "tests.support.realtime",
    "tests.support.live",
    "tests.support.ordering",
]

# Property tests judge what the code does, not how fast a loaded CI machine runs it: no
# per-example deadline and no "too slow" health check (both failed runs under load).
hypothesis.settings.register_profile("suite", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("suite")


# A test that drives a real browser or server process is run again once when it fails
# (pytest-rerunfailures; the summary lists every rerun, so a flaky test is still seen): on a
# loaded CI machine a wait of seconds can run out once without anything being wrong.
LIVE_TEST_RERUNS = int(os.environ.get("LIVE_TEST_RERUNS", "1"))
# The fixtures that start a browser or a server process; a test using one (or marked `live`, or
# in a module that starts daphne itself) is a live test. `make test-fast` runs the others.
LIVE_FIXTURES = {
    "chromium",
    "chromium_with_fake_media",
    "serve",
    "live_server",
    "live_app",
    "protocol_server",
    "live_screens",
    "shared_live_server",
    "shared_second_server",
    "server_pair",
    "s3_server",
}
LIVE_MODULE_NAMES = {"start_daphne", "web_server"}


def is_live(item) -> bool:
    module = getattr(item, "module", None)
    return bool(
        item.get_closest_marker("live")
        or LIVE_FIXTURES & set(getattr(item, "fixturenames", ()))
        or (module is not None and LIVE_MODULE_NAMES & set(vars(module)))
    )


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the markers added here
def pytest_collection_modifyitems(config, items):
    """`postgres` tests need PostgreSQL (concurrent transactions, row locks): on the embedded
    SQLite default they skip, so `make test` passes with no DATABASE_URL. Live and browser
    tests are marked `live` (`-m "not live"` leaves them out) and get their LIVE_TEST_RERUNS."""
    from django.db import connection

    for item in items:
        if is_live(item):
            if not item.get_closest_marker("live"):
                item.add_marker(pytest.mark.live)
            if LIVE_TEST_RERUNS:
                item.add_marker(pytest.mark.flaky(reruns=LIVE_TEST_RERUNS))
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (DATABASE_URL): the embedded default is SQLite")
    for item in items:
        if item.get_closest_marker("postgres"):
            item.add_marker(skip)


_reruns: list = []  # the failed first tries of rerun tests, shown at the end


def pytest_runtest_logreport(report):
    if report.outcome == "rerun":
        _reruns.append(report)


def pytest_terminal_summary(terminalreporter):
    """Each rerun's first failure in full (its report, browser diagnostics included): a flake
    that passed on its second try is still a bug to read, and CI's output is all there is."""
    for report in _reruns:
        terminalreporter.write_sep("-", f"first try of {report.nodeid} (rerun)")
        terminalreporter.write_line(report.longreprtext[-12000:])


class _SerialWSGIServer(WSGIServer):
    """One request at a time (Django's basehttp then answers `Connection: close`)."""

    def __init__(self, *args, connections_override=None, **kwargs):
        super().__init__(*args, **kwargs)


def pytest_configure(config):
    """On the embedded SQLite default the test database lives in memory, and pytest-django's
    live_server hands its threads that one connection: Django's threaded server then runs a page
    and its images on it at once and their savepoints collide ("no such savepoint"). There, the
    live server answers one request at a time; on PostgreSQL each thread has its own connection."""
    if settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        LiveServerThread.server_class = _SerialWSGIServer
    flush_only_written_tables()  # a transactional test's teardown empties only the tables it wrote


@pytest.fixture(scope="session")
def django_db_setup(django_test_environment, django_db_blocker, django_db_modify_db_settings):
    """pytest-django's, with the test database copied from a template migrated once for every
    process of the run (tests/support/template_database.py)."""
    with django_db_blocker.unblock():
        old_name = setup_test_database()
        remember_flush_counts()
    yield
    with django_db_blocker.unblock():
        teardown_test_database(old_name)


@pytest.fixture
def scratch_database(transactional_db):
    """A test that migrates backwards and forwards works on a fresh copy of the template: stopped
    half-way, it leaves the worker's own database at the latest schema. Name it before the
    fixtures whose rows it should hold."""
    with scratch_copy():
        yield


def clear_cache() -> None:
    cache.clear()  # on Redis: the keys under CACHE_KEY_PREFIX only (apps.core.cache)


# Password hashing is deliberately slow; tests sign in hundreds of times. A test that proves the
# real hasher (or signs in on a server process, which has its own settings) sets its own.
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _isolated(settings):
    clear_cache()
    settings.TASK_MODE = "sync"
    settings.PASSWORD_HASHERS = FAST_HASHERS
    yield
    clear_cache()


@pytest.fixture(scope="session", autouse=True)
def _demo_photos_drawn_once():
    """seed_demo's photos drawn and encoded once per process (tests/support/demo_photos.py)."""
    from apps.demo import menu_seed
    from tests.support import demo_photos

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(menu_seed, "_stored_photo", demo_photos.stored_photo)
        yield


@pytest.fixture(scope="session")
def _menu_photo_folder(tmp_path_factory):
    return tmp_path_factory.mktemp("menu-photos")


def menu_photo_settings(folder) -> dict:
    """Menu photos that tests store (seed_demo, panel uploads) never land in var/media, nor
    seed_demo's kiosk-app pairing code in var/: the settings that put them in `folder`."""
    options = {"location": folder, "base_url": settings.MENU_PHOTOS_URL}
    menu_photos = {"BACKEND": "django.core.files.storage.FileSystemStorage", "OPTIONS": options}
    return {
        "STORAGES": {**settings.STORAGES, "menu_photos": menu_photos},
        "DEMO_KIOSK_CODE_FILE": folder / "demo-kiosk-app.json",
    }


@pytest.fixture(autouse=True)
def _menu_photos_in_a_temporary_folder(settings, _menu_photo_folder):
    for name, value in menu_photo_settings(_menu_photo_folder).items():
        setattr(settings, name, value)


@contextlib.contextmanager
def rows_for_the_module(django_db_blocker, photo_folder) -> Iterator[None]:
    """For a module-scoped fixture: rows made once for a module's tests (seed_demo, a tenant's every
    object), in a transaction rolled back after the module's last test; each test runs in a
    savepoint inside it, as `db` makes one, so what a test writes is gone before the next. Made
    with the settings every test gets (a module's fixtures come before the per-test ones): the
    fast hasher, synchronous tasks, photos in the temporary folder, an empty cache. Every test of
    the module sees these rows once one test asked for them: a test that needs an empty database
    lives in another module."""
    settings_of_every_test = {
        "PASSWORD_HASHERS": FAST_HASHERS,
        "TASK_MODE": "sync",
        **menu_photo_settings(photo_folder),
    }
    with override_settings(**settings_of_every_test), django_db_blocker.unblock(), transaction.atomic():
        clear_cache()
        yield
        transaction.set_rollback(True)


@pytest.fixture
def one_rate_window():
    """Rate-limit windows are whole clock minutes (apps/api/throttles.py): a test that counts up
    to a limit runs with the clock stopped one second into a minute, so no new window can reset
    its count halfway (the limit then answers Retry-After 59)."""
    start = timezone.now().replace(second=1, microsecond=0) + timedelta(minutes=1)
    with time_machine.travel(start, tick=False):
        yield


class AgentClient(Client):
    """A Django test client that sends X-XSRF-TOKEN (from the cookie) on mutating requests."""

    def _xsrf_headers(self, headers):
        headers = dict(headers or {})
        cookie = self.cookies.get(settings.XSRF_COOKIE_NAME)
        if cookie is not None:
            headers.setdefault("X-XSRF-TOKEN", cookie.value)
        return headers

    def post(self, path, data=None, content_type="application/json", headers=None, **extra):
        return super().post(path, data, content_type=content_type, headers=self._xsrf_headers(headers), **extra)

    def delete(self, path, data="", content_type="application/json", headers=None, **extra):
        return super().delete(path, data, content_type=content_type, headers=self._xsrf_headers(headers), **extra)

    def sign_in(self, email: str, password: str = factories.PASSWORD, remember: bool = False):
        self.get("/api/csrf-cookie")
        return self.post("/api/login", {"email": email, "password": password, "remember": remember})


def kiosk_client_for(kiosk) -> Client:
    return Client(headers={"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token})


def token_client_for(user) -> Client:
    """A client of the token API (/api/v1), holding a fresh personal access token of `user`."""
    from apps.accounts.services import access_token_issue

    _, plaintext = access_token_issue(user=user)
    return Client(headers={"Authorization": f"Bearer {plaintext}"})


@pytest.fixture
def business(db):
    return factories.BusinessFactory()


@pytest.fixture
def owner(business):
    return business.owner


@pytest.fixture
def panel_owner(owner):
    """The owner's own sign-in to the owner panel."""
    return factories.PanelUserFactory(owner=owner, panel_role="owner", name="Olivia Owner")


@pytest.fixture
def owner_client(panel_owner) -> Client:
    """The owner panel, signed in as the owner (a module overrides `owner` for another tenant)."""
    client = Client()
    client.force_login(panel_owner)
    return client


@pytest.fixture
def kiosk(business):
    return factories.KioskFactory(business=business)


@pytest.fixture
def kiosk_client(kiosk) -> Client:
    return kiosk_client_for(kiosk)


@pytest.fixture
def agent(owner):
    return factories.AgentFactory(owner=owner)


@pytest.fixture
def agent_client(agent) -> AgentClient:
    client = AgentClient()
    response = client.sign_in(agent.email)
    assert response.status_code == 200, response.content
    return client


@pytest.fixture
def api(agent) -> Client:
    """The agent's token API client (tests/owner_api overrides `api` with an owner API client)."""
    return token_client_for(agent)


# Admin-site tests use pytest-django's own `admin_client` (signed in as a superuser).


@pytest.fixture
def token_client(agent, settings) -> Client:
    """The agent's token API client over plain HTTP (REQUIRE_TLS off)."""
    settings.REQUIRE_TLS = False
    return token_client_for(agent)


@pytest.fixture
def other_business(db):
    """A second tenant, for cross-owner checks."""
    return factories.BusinessFactory()


@pytest.fixture
def receiver():
    """A real HTTP server on loopback that records what webhooks deliver to it."""
    with Receiver() as running:
        yield running


@pytest.fixture
def subscription(owner, receiver):
    """The owner's webhook subscription to kiosk.offline, delivering to `receiver`."""
    from apps.webhooks import services as webhook_services

    return webhook_services.subscription_create(owner=owner, url=receiver.url, events=["kiosk.offline"])[0]
