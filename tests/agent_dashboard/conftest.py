"""The agent dashboard in a real Chromium (tests/support/browser.py) against the real ASGI server: daphne
started by tests/support/processes.py on the test database, so the WebSocket, the channel layer and every
API call are the production ones. A test builds its rows first (a fresh owner), then calls
`serve()`; after that it talks to the server only over HTTP (the kiosk API, signed processor
events), as clients do. `serve()` is the worker's shared server on the worker's live database
(tests/support/live.py); `serve(**env)` starts one of the test's own.
"""

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.kiosk_app.conftest import as_paired
from tests.support.browser import page_opener
from tests.support.live import SERVER_CHECKED_HASHERS, Server  # noqa: F401 (Server: tests import it from here)
from tests.support.payments import ACCOUNT

# Chromium logs every failed resource load as a console error; that is the browser's network log,
# not a script error, so two kinds are tolerated and nothing else:
# - an API answer the dashboard expects and handles (401 before sign-in, 403 for an owner account,
#   409 for a session another agent took or a used 2FA challenge, 410 for an expired one, 422 for a
#   cart line, 429 for a throttled sign-in), from our own server;
# - the video SDK's own attempts to reach the provider's servers (*.sd-rtn.com gateways and stats,
#   *.agora.io), which fail here by design: no internet. The SDK's own console logging is off
#   (AgoraRTC.setLogLevel(4)); these lines are the browser's, about the SDK's requests.
EXPECTED_HTTP_REFUSALS = (
    r"^Failed to load resource: the server responded with a status of (401|403|409|410|422|429) .* \[{own}/"
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
    """The rows one dashboard test needs: a business with a menu, a kiosk, agents."""

    business: object
    kiosk: object
    agents: list
    items: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)


@pytest.fixture
def world(live_db, settings) -> World:
    # The server checks passwords with its own hashers (the suite's MD5 shortcut is not among them).
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS
    business = factories.BusinessFactory(name="Burger Barn")
    kiosk = factories.KioskFactory(business=business, name="Front counter", location="Main St")
    agent = factories.AgentFactory(owner=business.owner, name="Ada Agent", agent_status="offline")
    factories.OwnerBillingFactory(owner=business.owner, account_id=ACCOUNT, charges_enabled=True, payouts_enabled=True)
    category = factories.CategoryFactory(catalog=factories.CatalogFactory(business=business), name="Burgers")
    burger = factories.MenuItemFactory(category=category, name="Burger", price_cents=1000, description="Beef.")
    bun = factories.ModifierGroupFactory(item=burger, name="Bun", required=True, min=1, max=1)
    brioche = factories.ModifierOptionFactory(group=bun, name="Brioche", price_cents=50)
    factories.ModifierOptionFactory(group=bun, name="Sesame", price_cents=0)
    sides = factories.CategoryFactory(catalog=category.catalog, name="Sides")
    fries = factories.MenuItemFactory(category=sides, name="Fries", price_cents=300, track_stock=True, stock=1)
    shake = factories.MenuItemFactory(category=sides, name="Shake", price_cents=450, track_stock=True, stock=0)
    return World(
        business=business,
        kiosk=kiosk,
        agents=[agent],
        items={"burger": burger, "fries": fries, "shake": shake},
        options={"brioche": brioche},
    )


@pytest.fixture
def open_dashboard(chromium, request):
    """open_dashboard(server, before=None) -> a page on /agent/ in a fresh browser context, offline
    but for the server (tests/support/browser.py page_opener); `before(page)` runs before the first
    load (a WebSocket route, an init script, the page's clock), so the page is loaded once."""
    with page_opener(chromium, request) as open_:
        yield lambda server, *, viewport=(1280, 860), before=None: open_(server.url, "/agent/", viewport, before=before)


def refuse_websockets(page) -> None:
    """A proxy refusing WebSockets: the real-time link is closed as soon as it opens."""
    page.route_web_socket(re.compile(r"/app/"), lambda ws: ws.close())


@pytest.fixture
def open_kiosk(chromium, request):
    """open_kiosk(server, kiosk) -> the kiosk app (/kiosk/) on a device paired as `kiosk`."""
    with page_opener(chromium, request) as open_:
        yield lambda server, kiosk: open_(server.url, "/kiosk/", (1180, 820), before=as_paired(kiosk))


def sign_in(page, email: str, password: str = factories.PASSWORD) -> None:
    # The form shows once the dashboard has asked who is signed in (401): seconds on a loaded machine.
    expect(page.locator("#signin-email")).to_be_visible(timeout=30_000)
    page.fill("#signin-email", email)
    page.fill("#signin-password", password)
    page.click("#signin-submit")


def sign_in_and_go_available(page, agent) -> None:
    sign_in(page, agent.email)
    expect(page.locator("#app")).to_be_visible()
    expect(page.locator("#agent-name")).to_have_text(agent.name)
    status = page.locator("#agent-status")
    # Playwright fires the change even when the agent is available already: the dashboard posts
    # the status and announces it once the server has answered. That answer, not only the
    # channel's news (which may come first and set the status below), is waited for: an
    # announcement the test waits for next (a new card's) would otherwise be overwritten by it.
    with page.expect_response(lambda response: response.url.endswith("/api/agent/status")):
        status.select_option("available")
    expect(status).to_have_attribute("data-status", "available")
    expect(page.locator("#announcer")).to_contain_text(status.locator("option[value='available']").inner_text())


def card(page, session_id: str):
    return page.locator(f"#incoming li[data-session-id='{session_id}']")


def assert_no_console_errors(page) -> None:
    own = re.escape(page.server_url)
    page.console_errors.assert_none(allow=f"{EXPECTED_HTTP_REFUSALS.format(own=own)}|{PROVIDER_UNREACHABLE}")
