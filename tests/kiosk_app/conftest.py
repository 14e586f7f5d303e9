"""The kiosk app (static/kiosk/) in a real Chromium (tests/support/browser.py) against the real ASGI
server, daphne started by tests/support/processes.py, as the agent dashboard's tests do: a test makes its
rows (a business with a menu, an agent, pairing codes) first, then calls `serve()`, and after that
talks to the server only over HTTP, as the kiosk, the agent and the owner do. `serve()` is the
worker's shared server on the worker's live database; `serve(**env)` starts one of the test's own
(tests/support/live.py).

A kiosk page can be opened from the server itself (/kiosk/) or from a second origin: a plain
static file server on another port serving static/kiosk/ with its own config.js pointing at the
API server, the way an owner hosts the app elsewhere.
"""

import functools
import json
import re
import shutil
import tempfile
import threading
from dataclasses import dataclass, field
from datetime import timedelta
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from apps.kiosks import services as kiosk_services
from apps.kiosks.models import PairingCode
from tests import factories
from tests.support.browser import page_opener
from tests.support.live import SERVER_CHECKED_HASHERS, Server  # noqa: F401 (Server: tests import it from here)
from tests.support.processes import ROOT

KIOSK_STATIC = ROOT / "static" / "kiosk"
SCREENSHOTS = ROOT / "docs" / "screenshots"

# Chromium logs every failed resource load as a console error: that is the browser's network log,
# not a script error. Tolerated, and nothing else: the API answers the kiosk app expects and shows
# in words (pairing refusals 404/409/410/429, the 401 of an unpaired kiosk, the 402 of a declined
# demo card), and the video SDK's attempts to reach the provider (no internet here, by design).
EXPECTED_REFUSALS = (
    r"^Failed to load resource: the server responded with a status of (401|402|404|409|410|429) .* \[{own}/"
)
PROVIDER_UNREACHABLE = (
    r"^Failed to load resource: net::ERR_INTERNET_DISCONNECTED \[https://[^/]*\.(sd-rtn\.com|agora\.io)[:/]"
)


@pytest.fixture(autouse=True)
def _rows_where_the_server_reads(live_db):
    """Every row a test here makes goes to the worker's live database, whichever fixture makes
    it, so the server sees it (tests/support/live.py)."""


@dataclass
class World:
    business: object
    owner_user: object
    agent: object
    codes: dict = field(default_factory=dict)  # name -> plaintext pairing code
    items: dict = field(default_factory=dict)


def make_code(business, *, expired: bool = False) -> str:
    pairing_code, code = kiosk_services.pairing_code_create(business=business)
    if expired:
        PairingCode.objects.filter(pk=pairing_code.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    return code


@pytest.fixture
def world(live_db, settings) -> World:
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS
    business = factories.BusinessFactory(
        name="Burger Barn", primary_color="#C2410C", attract_message="Tap to order with a real person"
    )
    owner_user = factories.PanelUserFactory(owner=business.owner, panel_role="owner", name="Olivia Owner")
    agent = factories.AgentFactory(owner=business.owner, name="Ada Agent", agent_status="offline")
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business), name="Burgers")
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000, description="Beef.")
    fries = factories.MenuItemFactory(category=category, name="Fries", price_cents=300)
    return World(
        business=business,
        owner_user=owner_user,
        agent=agent,
        codes={"fresh": make_code(business), "expired": make_code(business, expired=True)},
        items={"burger": burger, "fries": fries},
    )


@pytest.fixture
def kiosk(world):
    """A kiosk already paired (as if through the app): its device keeps the id and token."""
    return factories.KioskFactory(business=world.business, name="Front counter", location="Main St")


def device_storage(kiosk) -> str:
    """The kiosk app's localStorage entry for a paired `kiosk` (static/kiosk/device.js)."""
    return json.dumps({"deviceId": str(kiosk.device_id), "token": kiosk.raw_token, "kioskId": str(kiosk.pk)})


def as_paired(kiosk):
    """A `before` hook for open_page: the device is paired already (set once, not on reloads)."""

    def install(page):
        entry = json.dumps(device_storage(kiosk))
        page.add_init_script(
            "if (!window.localStorage.getItem('kiosk-app.device'))"
            f" window.localStorage.setItem('kiosk-app.device', {entry});"
        )

    return install


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def second_origin():
    """second_origin(api_url) -> the URL of static/kiosk/ served by a plain static file server on
    its own port, with a config.js naming the API server (nothing else changed)."""
    servers = []
    folder = Path(tempfile.mkdtemp(prefix="kiosk-origin-"))

    def start(api_url: str, port: int) -> str:
        shutil.copytree(KIOSK_STATIC, folder / "kiosk")
        (folder / "kiosk" / "config.js").write_text(f'window.KIOSK_CONFIG = {{ apiBase: "{api_url}" }};\n')
        handler = functools.partial(_QuietHandler, directory=str(folder / "kiosk"))
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{port}/"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
    shutil.rmtree(folder, ignore_errors=True)


def with_clock(before=None):
    """A `before` hook for open_page that installs Playwright's clock on the page first (it runs
    in real time until told otherwise), then runs `before`: `page.clock.run_for(ms)` then fires
    every timer due in `ms` at once. A test that shows a timer does nothing runs the page's clock
    past it, instead of waiting that long in real time."""

    def install(page):
        page.clock.install()
        if before:
            before(page)

    return install


@pytest.fixture
def open_page(chromium, request):
    """open_page(url, server) -> a page in a fresh browser context (a tablet-sized screen),
    offline but for the server (tests/support/browser.py page_opener)."""
    with page_opener(chromium, request) as open_:
        yield lambda url, server, *, viewport=(1180, 820), before=None: open_(server.url, url, viewport, before=before)


def pair(page, code: str, name: str = "Front counter") -> None:
    expect(page.locator("body")).to_have_attribute("data-screen", "pairing")
    page.fill("#pairing-code", code)
    page.fill("#pairing-name", name)
    page.click("#pairing-submit")


def agent_serves_a_burger(tablet, dashboard) -> str:
    """The customer starts on the tablet; the agent, signed in and available on the dashboard,
    accepts and adds a Burger. Returns the session's id once the tablet shows the line and the
    dashboard has saved the cart (the reader journeys all begin so)."""
    tablet.click("#start")
    expect(tablet.locator("body")).to_have_attribute("data-screen", "waiting")
    incoming = dashboard.locator("#incoming li").first
    expect(incoming).to_be_visible()
    session_id = incoming.get_attribute("data-session-id")
    dashboard.locator(f"#incoming li[data-session-id='{session_id}'] button.accept").click()
    expect(tablet.locator("body")).to_have_attribute("data-screen", "session")
    dashboard.click("button.menu-item:has-text('Burger')")
    expect(tablet.locator("#cart-lines li")).to_have_count(1)
    expect(dashboard.locator("#cart-lines")).to_have_attribute("data-saving", "false")
    return session_id


def assert_no_console_errors(page) -> None:
    own = re.escape(page.server_url)
    page.console_errors.assert_none(allow=f"{EXPECTED_REFUSALS.format(own=own)}|{PROVIDER_UNREACHABLE}")


def block_socket(page) -> None:
    """A proxy refusing WebSockets: the kiosk app must fall back to polling."""
    page.route_web_socket(re.compile(r"/app/"), lambda ws: ws.close())
