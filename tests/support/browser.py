"""The real browser shared by the browser tests (owner panel, agent dashboard): Debian's Chromium
(/usr/bin/chromium) driven by Playwright; nothing is downloaded. Without it the browser tests skip
on a laptop, but fail in CI (CI set), so a missing install step cannot pass unnoticed."""

import os
import re
import shutil
import time
from contextlib import contextmanager

import pytest

from tests.support.processes import ROOT
from tests.support.timings import timed

CHROMIUM = os.environ.get("PANEL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = ROOT / "test-artifacts"


# Chromium's fake camera and microphone (a test pattern and a beep), for WebRTC calls. A context
# that is granted "camera" and "microphone" gets them; any other context is refused, as a
# customer who says no.
FAKE_MEDIA_ARGS = ["--use-fake-device-for-media-stream", "--autoplay-policy=no-user-gesture-required"]


def _launch(extra_args: list[str]):
    if not shutil.which(CHROMIUM):
        message = f"{CHROMIUM} is missing: apt-get install chromium"
        if os.environ.get("CI"):
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=10_000)  # CI machines are small; a page may take a moment

    # Meanwhile Django would refuse the ORM calls the tests make between browser steps, which
    # are plain synchronous code all the same.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        with timed("browser launch"):
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS + extra_args, headless=True
            )
        opened = _count_contexts(browser) if os.environ.get("SUITE_TIMINGS") else [0]
        yield browser
        with timed("browser close", contexts=opened[0]):
            browser.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _count_contexts(browser) -> list[int]:
    """For SUITE_TIMINGS: how many contexts (each a fresh profile; new_page makes one too) the
    module's tests open on this browser."""
    opened = [0]
    for name in ("new_context", "new_page"):
        original = getattr(browser, name)

        def counting(*args, _original=original, **kwargs):
            opened[0] += 1
            return _original(*args, **kwargs)

        setattr(browser, name, counting)
    return opened


@pytest.fixture(scope="module")
def chromium():
    """One browser per test module: Playwright's sync API keeps an asyncio loop marked running
    on this thread while it is open, so it is closed before the other modules' tests run."""
    yield from _launch([])


@pytest.fixture(scope="module")
def chromium_with_fake_media():
    """The same browser with fake media devices (FAKE_MEDIA_ARGS), for video calls."""
    yield from _launch(FAKE_MEDIA_ARGS)


class ConsoleErrors(list):
    def assert_none(self, allow: str | None = None):
        unexpected = [error for error in self if not (allow and re.search(allow, error))]
        assert unexpected == [], f"console errors: {unexpected}"


def collect_console_errors(page) -> ConsoleErrors:
    """Console errors with the URL they are about, so the allowances can say whose they are."""
    errors = ConsoleErrors()

    def on_console(message):
        if message.type == "error":
            errors.append(f"{message.text} [{message.location.get('url', '')}]")

    page.on("console", on_console)
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    return errors


class RequestTrail:
    """A page's requests that failed or never finished, for a failed test's report (a page that
    stays blank says here what it was waiting on)."""

    def __init__(self, page):
        self.pending: dict = {}
        self.failed: list[str] = []
        page.on("request", lambda request: self.pending.setdefault(request, time.monotonic()))
        page.on("requestfinished", lambda request: self.pending.pop(request, None))
        page.on("requestfailed", self._failed)

    def _failed(self, request):
        self.pending.pop(request, None)
        self.failed.append(f"{request.method} {request.url}: {request.failure}")

    def describe(self) -> str:
        now = time.monotonic()
        waiting = [f"{r.method} {r.url} (for {now - at:.1f} s)" for r, at in self.pending.items()]
        return "\n".join(["unfinished:", *waiting, "failed:", *self.failed[-30:]])


def _offline(route):
    route.abort("internetdisconnected")


def new_page(browser, server_url: str, viewport: tuple[int, int], permissions: list[str] | None = None):
    """(context, page): a page in a fresh context whose relative URLs go to `server_url`, with
    its console errors collected. The machine has no internet, and the page makes sure of it:
    requests to any host but this one fail at once. `permissions`: e.g. ["camera", "microphone"]."""
    context = browser.new_context(
        base_url=server_url, viewport={"width": viewport[0], "height": viewport[1]}, permissions=permissions or []
    )
    context.set_default_timeout(10_000)
    context.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/]|localhost[:/])"), _offline)
    page = context.new_page()
    page.console_errors = collect_console_errors(page)
    page.request_trail = RequestTrail(page)
    page.server_url = server_url
    return context, page


@contextmanager
def page_opener(browser, request):
    """Yields open_(base_url, path, viewport, before=None, permissions=None) -> a page on `path`
    in a fresh context (new_page; `before(page)` runs first, e.g. to seed localStorage); on exit
    each page is screenshotted if the test failed and its context closed."""
    opened = []
    pages = request.node.__dict__.setdefault("open_pages", [])  # for the report hook; shared by openers

    def open_(base_url: str, path: str, viewport: tuple[int, int], *, before=None, permissions=None):
        context, page = new_page(browser, base_url, viewport, permissions)
        opened.append((context, page))
        pages.append(page)
        if before:
            before(page)
        page.goto(path)
        return page

    try:
        yield open_
    finally:
        for context, page in opened:
            screenshot_on_failure(request, page)
            context.close()
            pages.remove(page)  # a rerun of the test starts with none


def screenshot_on_failure(request, page) -> None:
    report = getattr(request.node, "report_call", None)
    if report is None or report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", request.node.nodeid.split("::")[-1])
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test item, so a fixture can tell a failed test. A failed
    test shows the end of the log (access lines included) of each server it started
    (`item.live_servers`, set by the `serve` fixtures): what the pages asked and what answered."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    if report.when == "call" and report.failed:
        for page in getattr(item, "open_pages", ()):
            trail = [*page.console_errors, page.request_trail.describe()]
            report.sections.append((f"page {page.url}: console errors, requests", "\n".join(trail)))
        for server in getattr(item, "live_servers", ()):
            report.sections.append((f"daphne on port {server.port}, end of its log", server.log()))
    return report
