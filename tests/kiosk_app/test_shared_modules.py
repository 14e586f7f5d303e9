"""The modules the kiosk app shares with the agent dashboard (static/common/) are one definition,
loaded by the kiosk (its loader, main.js, imports the app's code from the API server's /static/ at
start): they carry the CORS header a module import from another origin needs, the kiosk folder
holds no copy, and a kiosk that starts while the service is unreachable says so and starts over,
with a back-off, until it answers."""

import functools
import re
import shutil
import tempfile
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.test import Client
from playwright.sync_api import expect

from apps.kiosk_app.catalogue import KIOSK_LANGUAGES
from tests.kiosk_app.conftest import KIOSK_STATIC
from tests.support.processes import free_port

COMMON = KIOSK_STATIC.parent / "common"


def test_the_shared_modules_answer_any_origin_and_the_kiosk_keeps_no_copy():
    shared = [f"common/{name}" for name in ("ui.js", "http.js", "scripts.js", "video-call.js", "store.js")]
    for module in [*shared, "kiosk/app.js"]:
        answer = Client().get(f"/static/{module}", HTTP_ORIGIN="https://kiosk.example.com")
        assert answer.status_code == 200, module
        assert answer["Access-Control-Allow-Origin"] == "*"
        assert answer["Content-Type"].startswith("text/javascript")
    kiosk_code = "\n".join(path.read_text(encoding="utf-8") for path in KIOSK_STATIC.glob("*.js"))
    for definition in ("export function el(", "class ApiError", "createMicrophoneAndCameraTracks"):
        assert definition not in kiosk_code


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class _PublicStatic(_Quiet):
    """A stand-in for the service's static files, with WhiteNoise's CORS header, and the kiosk's
    catalogues (written out from the service's answers)."""

    def end_headers(self):
        self.send_header("Access-Control-Allow-Origin", "*")
        super().end_headers()


def _serve(folder: Path, port: int, handler) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(folder)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.live
def test_a_kiosk_started_while_the_service_is_unreachable_says_so_and_starts_once_it_answers(open_page):
    folder = Path(tempfile.mkdtemp(prefix="kiosk-unreachable-"))
    api_port, kiosk_port = free_port(), free_port()
    shutil.copytree(KIOSK_STATIC, folder / "kiosk")
    config = f'window.KIOSK_CONFIG = {{ apiBase: "http://127.0.0.1:{api_port}" }};\n'
    (folder / "kiosk" / "config.js").write_text(config)
    shutil.copytree(COMMON, folder / "api" / "static" / "common")
    shutil.copytree(KIOSK_STATIC, folder / "api" / "static" / "kiosk")
    catalogues = folder / "api" / "api" / "public" / "i18n"  # the words the app loads with its code
    catalogues.mkdir(parents=True)
    for language in KIOSK_LANGUAGES:
        (catalogues / language).write_bytes(Client().get(f"/api/public/i18n/{language}").content)
    servers = [_serve(folder / "kiosk", kiosk_port, _Quiet)]
    try:
        kiosk_url = f"http://127.0.0.1:{kiosk_port}/"
        page = open_page(kiosk_url, SimpleNamespace(url=kiosk_url))
        expect(page.locator("#screen-loading")).to_contain_text("The service cannot be reached. Trying again in 2 s")
        started = page.evaluate("performance.timeOrigin")

        servers.append(_serve(folder / "api", api_port, _PublicStatic))
        expect(page.locator("body")).to_have_attribute("data-screen", "pairing", timeout=15_000)
        assert page.evaluate("performance.timeOrigin") > started  # the page started over
        refused = [e for e in page.console_errors if "ERR_CONNECTION_REFUSED" in e]
        from_api = rf"\[http://127\.0\.0\.1:{api_port}/static/(kiosk|common)/"
        assert refused and all(re.search(from_api, e) for e in refused)
        page.console_errors.assert_none(allow="ERR_CONNECTION_REFUSED")
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        shutil.rmtree(folder, ignore_errors=True)
