"""Video calls in a real Chromium with fake camera and microphone (tests/support/browser.py
FAKE_MEDIA_ARGS) against the real ASGI server: the kiosk app's world and server (tests/kiosk_app/
conftest.py; here only, since its `kiosk` belongs to that world and not to the suite's `agent`),
a kiosk tablet and an agent dashboard in two browser contexts."""

import pytest

from tests.kiosk_app.conftest import kiosk, serve, world  # noqa: F401 (fixtures used by the call tests)
from tests.support.browser import new_page, screenshot_on_failure

MEDIA = ["camera", "microphone"]


@pytest.fixture
def open_call_page(chromium_with_fake_media, request):
    """open_call_page(url, server, media=True, before=None) -> a page in a fresh context; `media`
    False refuses the camera and microphone (the customer said no)."""
    contexts = []

    def open_(url: str, server, *, media: bool = True, before=None, viewport=(1180, 820)):
        context, page = new_page(chromium_with_fake_media, server.url, viewport, permissions=MEDIA if media else [])
        if before:
            before(page)
        contexts.append((context, page))
        page.goto(url)
        return page

    yield open_
    for context, page in contexts:
        screenshot_on_failure(request, page)
        context.close()
