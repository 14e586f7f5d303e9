"""Fixtures for the owner panel: panel users, a signed-in test client, and a real Chromium
driven by Playwright against pytest-django's live server (the browser itself: tests/support/browser.py).
"""

import re

import pytest
from django.test import Client

from tests import factories
from tests.support.browser import ARTIFACTS, ConsoleErrors


@pytest.fixture
def panel_manager(owner):
    return factories.PanelUserFactory(owner=owner, panel_role="manager", name="Max Manager")


@pytest.fixture
def manager_client(panel_manager) -> Client:
    client = Client()
    client.force_login(panel_manager)
    return client


@pytest.fixture
def browser_settings(settings):
    """The live server speaks plain HTTP: cookies cannot carry the Secure flag there."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.PANEL_LIVE_STATUS = False
    return settings


@pytest.fixture
def page(request, chromium, live_server, browser_settings):
    """A fresh browser context per test. Console errors and page errors are collected for
    `page.console_errors.assert_none()`; a failing test leaves a screenshot in test-artifacts/."""
    context = chromium.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(10_000)
    # No network here: menu photos on other hosts get a placeholder image instead of a DNS error.
    context.route(re.compile(r"^https?://(?!localhost[:/]|127\.0\.0\.1[:/])"), _placeholder_image)
    browser_page = context.new_page()
    errors = ConsoleErrors()
    browser_page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    browser_page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    browser_page.on("dialog", lambda dialog: dialog.accept())
    browser_page.console_errors = errors
    yield browser_page
    report = getattr(request.node, "report_call", None)
    if report is None or report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid.split("::")[-1])
        browser_page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    context.close()


PLACEHOLDER_SVG = (
    "<svg xmlns='http://www.w3.org/2000/svg' width='160' height='120'>"
    "<rect width='160' height='120' fill='#e4e7ec'/></svg>"
)


def _placeholder_image(route):
    route.fulfill(status=200, content_type="image/svg+xml", body=PLACEHOLDER_SVG)


def sign_in(page, email: str, password: str = factories.PASSWORD):
    page.goto("/panel/login")
    page.fill("input[name=email]", email)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
