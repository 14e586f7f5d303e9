"""Video calls in a real Chromium with fake camera and microphone (tests/support/browser.py
FAKE_MEDIA_ARGS) against the real ASGI server: the kiosk app's world and server (tests/kiosk_app/
conftest.py; here only, since its `kiosk` belongs to that world and not to the suite's `agent`),
a kiosk tablet and an agent dashboard in two browser contexts."""

import pytest

from tests.kiosk_app.conftest import kiosk, serve, world  # noqa: F401 (fixtures used by the call tests)
from tests.support.browser import page_opener

MEDIA = ["camera", "microphone"]


@pytest.fixture
def open_call_page(chromium_with_fake_media, request):
    """open_call_page(url, server, media=True, before=None) -> a page in a fresh context; `media`
    False refuses the camera and microphone (the customer said no)."""

    def open_call(open_, url: str, server, *, media: bool = True, before=None, viewport=(1180, 820)):
        return open_(server.url, url, viewport, before=before, permissions=MEDIA if media else [])

    with page_opener(chromium_with_fake_media, request) as open_:
        yield lambda *args, **kwargs: open_call(open_, *args, **kwargs)
