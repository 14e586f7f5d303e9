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
    """The kiosk tablet behind a cable the test pulls (tests/support/cable.py). Yields a
    CableKiosk: `allowed_hosts` for serve(ALLOWED_HOSTS=...), open(server, before) -> the kiosk
    page, pull() and plug()."""
    with laid_cable() as cable:
        forwarder = Forwarder(cable.host_ip)
        url = f"http://{cable.host_ip}:{forwarder.port}"
        # A camera needs a secure context: 127.0.0.1 is one, the cable's address is made one.
        secure = f"--unsafely-treat-insecure-origin-as-secure={url}"
        browser = chromium_with_fake_media.browser_type.launch(
            executable_path=cable.chromium(tmp_path, CHROMIUM),
            args=[*CHROMIUM_ARGS, *FAKE_MEDIA_ARGS, secure],
            headless=True,
        )
        kiosk = CableKiosk(cable, browser, forwarder, url)
        try:
            yield kiosk
        finally:
            for context, page in kiosk.opened:
                screenshot_on_failure(request, page)
                context.close()
            browser.close()
            forwarder.close()


class CableKiosk:
    def __init__(self, cable, browser, forwarder, url):
        self.cable, self.browser, self.forwarder, self.url = cable, browser, forwarder, url
        self.allowed_hosts = f"localhost,127.0.0.1,{cable.host_ip}"
        self.opened = []

    def open(self, server, before=None):
        self.forwarder.target = urlsplit(server.url).port
        url = self.url
        context = self.browser.new_context(base_url=url, viewport={"width": 1180, "height": 820}, permissions=MEDIA)
        context.set_default_timeout(10_000)
        page = context.new_page()
        page.console_errors = collect_console_errors(page)
        page.server_url = url
        self.opened.append((context, page))
        if before:
            before(page)
        page.goto("/kiosk/")
        return page

    def pull(self):
        self.cable.pull()

    def plug(self):
        self.cable.plug()
