"""The agent dashboard in a real Chromium (tests/support/browser.py) against the real ASGI server: daphne
started by tests/support/processes.py on the test database, so the WebSocket, the channel layer and every
API call are the production ones. A test builds its rows first, then calls `serve()`; after that
it talks to the server only over HTTP (the kiosk API, signed processor events), as clients do.
On the embedded default the server gets a copy of the SQLite test database made at `serve()`.
"""

import contextlib
import json
import re
import shutil
import sqlite3
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests
import stripe
from django.db.models.sql import UpdateQuery
from playwright.sync_api import expect

from tests import factories
from tests.kiosk_app.conftest import as_paired
from tests.support.browser import page_opener
from tests.support.payments import ACCOUNT, CONNECT_SECRET, PLATFORM_SECRET, recorded_event
from tests.support.processes import database_url_for_child, start_daphne, stop_daphne

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


@dataclass
class World:
    """The rows one dashboard test needs: a business with a menu, a kiosk, agents."""

    business: object
    kiosk: object
    agents: list
    items: dict = field(default_factory=dict)
    options: dict = field(default_factory=dict)


@pytest.fixture
def world(transactional_db, settings) -> World:
    # The server checks passwords with its own hashers (the suite's MD5 shortcut is not among them).
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
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


@dataclass
class Server:
    url: str
    processor: object | None = None
    database_file: Path | None = None  # the embedded default's copy the server reads, else None

    def update_rows(self, queryset, **values) -> int:
        """`queryset.update(**values)` where the server reads it, between browser steps. On
        PostgreSQL the server shares the test database; on the embedded default it reads its own
        copy of the SQLite file, so the same UPDATE statement runs on that copy."""
        if self.database_file is None:
            return queryset.update(**values)
        query = queryset.query.chain(UpdateQuery)
        query.add_update_values(values)
        statement, params = query.get_compiler(queryset.db).as_sql()
        with contextlib.closing(sqlite3.connect(self.database_file)) as database, database:
            return database.execute(statement.replace("%s", "?"), params).rowcount

    def kiosk_call(self, kiosk, method: str, path: str, body: dict | None = None) -> requests.Response:
        headers = {"X-Device-Id": str(kiosk.device_id), "X-Device-Token": kiosk.raw_token}
        return requests.request(method, f"{self.url}/api/public{path}", json=body, headers=headers, timeout=10)

    def start_session(self, kiosk) -> str:
        started = self.kiosk_call(
            kiosk, "POST", "/sessions/start", {"device_id": str(kiosk.device_id), "customer_locale": "en-US"}
        )
        assert started.status_code == 201, started.text
        return started.json()["session_id"]

    def processor_event(self, event_type: str, intent_id: str) -> None:
        """The recorded payment_intent.* event for the intent (a decline's message: "Your card
        was declined."), signed and posted to the server's connect webhook. By id only: the
        payment row is the server's (on the embedded default, in its copy of the database).
        The processor sends `succeeded` once it has charged the card, and the server checks that
        with it: so the stand-in's intent succeeds first, and the event carries its amount."""
        fields = {"id": intent_id}
        if event_type == "payment_intent.succeeded" and self.processor is not None:
            intent = self.processor.succeed(intent_id)
            fields.update(amount=intent["amount"], currency=intent["currency"])
        payload = json.dumps(recorded_event(event_type, fields))
        signature = stripe.WebhookSignature.generate_signature_header(payload, CONNECT_SECRET)
        answer = requests.post(
            f"{self.url}/processor/connect/webhook",
            data=payload,
            headers={"Stripe-Signature": signature, "Content-Type": "application/json"},
            timeout=10,
        )
        assert answer.status_code == 200, answer.text


@pytest.fixture
def serve(world, request):
    """serve(**env) starts daphne on the rows made so far and returns a Server."""
    started = []
    request.node.live_servers = started  # their logs go into a failure's report
    workdir = Path(tempfile.mkdtemp(prefix="agent-dashboard-"))

    def start(**env: str) -> Server:
        processor = request.getfixturevalue("processor") if "processor" in request.fixturenames else None
        if processor is not None:
            env.update(
                PROCESSOR_SECRET_KEY="sk_test_standin",
                PROCESSOR_API_BASE=processor.url,
                PROCESSOR_WEBHOOK_SECRET=PLATFORM_SECRET,
                PROCESSOR_CONNECT_WEBHOOK_SECRET=CONNECT_SECRET,
            )
        database_url = database_url_for_child(workdir)
        server = start_daphne(workdir, database_url=database_url, **env)
        started.append(server)
        database_file = workdir / "var" / "db.sqlite3" if database_url is None else None
        return Server(url=server.base_url, processor=processor, database_file=database_file)

    yield start
    for server in started:
        stop_daphne(server)
    shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def open_dashboard(chromium, request):
    """open_dashboard(server) -> a page on /agent/ in a fresh browser context, offline but for the
    server (tests/support/browser.py page_opener)."""
    with page_opener(chromium, request) as open_:
        yield lambda server, *, viewport=(1280, 860): open_(server.url, "/agent/", viewport)


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
    page.select_option("#agent-status", "available")
    expect(page.locator("#agent-status")).to_have_attribute("data-status", "available")


def card(page, session_id: str):
    return page.locator(f"#incoming li[data-session-id='{session_id}']")


def assert_no_console_errors(page) -> None:
    own = re.escape(page.server_url)
    page.console_errors.assert_none(allow=f"{EXPECTED_HTTP_REFUSALS.format(own=own)}|{PROVIDER_UNREACHABLE}")
