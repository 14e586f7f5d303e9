"""Video calls in a real Chromium with fake camera and microphone (tests/support/browser.py
FAKE_MEDIA_ARGS) against the real ASGI server: the kiosk app's world and server (tests/kiosk_app/
conftest.py; here only, since its `kiosk` belongs to that world and not to the suite's `agent`),
a kiosk tablet and an agent dashboard in two browser contexts."""

from urllib.parse import urlsplit

import pytest

from tests.kiosk_app.conftest import kiosk, world  # noqa: F401 (fixtures used by the call tests)
from tests.support.browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    FAKE_MEDIA_ARGS,
    RequestTrail,
    collect_console_errors,
    page_opener,
    screenshot_on_failure,
)
from tests.support.cable import Forwarder, laid_cable

MEDIA = ["camera", "microphone"]


@pytest.fixture
def open_call_page(chromium_with_fake_media, request):
    """open_call_page(url, server, media=True, before=None) -> a page in a fresh context; `media`
    False refuses the camera and microphone (the customer said no)."""

    def open_call(open_, url: str, server, *, media: bool = True, before=None, viewport=(1180, 820)):
        return open_(server.url, url, viewport, before=before, permissions=MEDIA if media else [])

    with page_opener(chromium_with_fake_media, request) as open_:
        yield lambda *args, **kwargs: open_call(open_, *args, **kwargs)


@pytest.fixture
def kiosk_behind_cable(chromium_with_fake_media, request, tmp_path):
    """The kiosk tablet and the agent's dashboard on the two sides of a cable the test pulls
    (tests/support/cable.py), each in a Chromium of its own there. Yields a CableCall:
    `allowed_hosts` for serve(ALLOWED_HOSTS=...), open_kiosk(server, before) and
    open_dashboard(server, path) -> pages, pull() and plug()."""
    with laid_cable() as cable:
        forwarder = Forwarder(cable.listen_on_office_side())
        # A camera needs a secure context: 127.0.0.1 is one, the cable's address is made one.
        kiosk_url = f"http://{cable.office_ip}:{forwarder.port}"
        secure = f"--unsafely-treat-insecure-origin-as-secure={kiosk_url}"
        browsers = {
            side: chromium_with_fake_media.browser_type.launch(
                executable_path=cable.chromium(tmp_path, CHROMIUM, side),
                args=[*CHROMIUM_ARGS, *FAKE_MEDIA_ARGS, secure],
                headless=True,
            )
            for side in (cable.kiosk_side, cable.office_side)
        }
        try:
            with page_opener(browsers[cable.office_side], request) as open_office_page:
                call = CableCall(cable, browsers[cable.kiosk_side], open_office_page, forwarder, kiosk_url)
                try:
                    yield call
                finally:
                    for context, page in call.opened:
                        screenshot_on_failure(request, page)
                        context.close()
                        request.node.open_pages.remove(page)  # a rerun of the test starts with none
        finally:
            for browser in browsers.values():
                browser.close()
            forwarder.close()


class CableCall:
    def __init__(self, cable, kiosk_browser, open_office_page, forwarder, kiosk_url):
        self.cable, self.kiosk_browser, self.forwarder, self.kiosk_url = cable, kiosk_browser, forwarder, kiosk_url
        self.open_office_page = open_office_page
        self.allowed_hosts = f"localhost,127.0.0.1,{cable.office_ip}"
        self.opened = []

    def open_kiosk(self, server, request, before=None):
        """The tablet's page at the kiosk's side: its own context, the office's address (new_page
        would send it nowhere but 127.0.0.1)."""
        self.forwarder.target = urlsplit(server.url).port
        context = self.kiosk_browser.new_context(
            base_url=self.kiosk_url, viewport={"width": 1180, "height": 820}, permissions=MEDIA
        )
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.console_errors = collect_console_errors(page)
        page.request_trail = RequestTrail(page)
        page.server_url = self.kiosk_url
        request.node.__dict__.setdefault("open_pages", []).append(page)  # for a failure's report
        self.opened.append((context, page))
        if before:
            before(page)
        page.goto("/kiosk/")
        return page

    def open_dashboard(self, server, path: str):
        """A page at the office's side, through the forwarder on that side's 127.0.0.1."""
        self.forwarder.target = urlsplit(server.url).port
        return self.open_office_page(f"http://127.0.0.1:{self.forwarder.port}", path, (1280, 860), permissions=MEDIA)

    def pull(self):
        self.cable.pull()

    def plug(self):
        self.cable.plug()
