"""The pulled cable (tests/support/cable.py) leaves the host's network alone, so its test may run
beside the others: a Chromium on the host keeps loading a frame of module scripts and images (the
loads Chromium fails when it takes a link or address change for a new network:
net::ERR_NETWORK_CHANGED) while a cable is laid, pulled, plugged and taken up. After each step the
frame loads a few more times, so Chromium has seen the change if there was one. A veth end on the
host failed several of these loads every time."""

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.support.browser import new_page
from tests.support.cable import laid_cable
from tests.support.private_servers import wait_until

pytestmark = pytest.mark.live

# A frame of module scripts and images, loaded again as soon as it has loaded, its loads counted.
PAGE = b"""<!doctype html><title>loads</title><iframe id="frame" src="/frame?0"></iframe>
<script>
window.loads = 0;
document.getElementById('frame').onload = (event) => { window.loads++; event.target.src = `/frame?${window.loads}`; };
</script>"""
FRAME = "".join(
    f'<script type="module" src="/module.js?{n}"></script><img src="/image.svg?{n}">' for n in range(10)
).encode()
MODULE = b"export const loaded = true;"
IMAGE = b'<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'
ANSWERS = {
    "/frame": ("text/html", FRAME),
    "/module.js": ("text/javascript", MODULE),
    "/image.svg": ("image/svg+xml", IMAGE),
}
LOADS_AFTER_EACH_STEP = 3


class _Answer(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        kind, body = ANSWERS.get(self.path.partition("?")[0], ("text/html", PAGE))
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_a_chromium_on_the_host_keeps_loading_while_the_cable_is_laid_pulled_and_plugged(chromium, site):
    context, page = new_page(chromium, site, (800, 600))
    try:
        page.goto("/", wait_until="domcontentloaded")  # its frame never stops loading

        def loads_on() -> None:
            target = page.evaluate("window.loads") + LOADS_AFTER_EACH_STEP
            wait_until(lambda: page.evaluate("window.loads") >= target, 60, "the page's loads")

        loads_on()
        with laid_cable() as cable:
            loads_on()
            cable.pull()
            loads_on()
            cable.plug()
            loads_on()
        loads_on()
        assert page.request_trail.failed == []
        page.console_errors.assert_none()
    finally:
        context.close()
