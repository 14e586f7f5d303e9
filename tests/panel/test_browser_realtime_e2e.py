"""End to end: the dashboard in Chromium on the real ASGI server (daphne, the embedded mode in its
own var/ directory), subscribed to the owner's presence channel on the real realtime server. A
kiosk that comes back online shows as online without a reload."""

import json
import os
import subprocess
import sys
import time

import pytest
import requests
from playwright.sync_api import expect

from tests.support.processes import ROOT, free_port

pytestmark = pytest.mark.live
DEMO_OWNER, DEMO_PASSWORD = "owner@burgers.demo.test", "demo-password-1"


def manage(env, *args) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture(scope="module")
def daphne_server(tmp_path_factory):
    """A seeded embedded-mode service on a loopback port, every kiosk offline to begin with."""
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "REDIS_URL")}
    env.update(
        VAR_DIR=str(tmp_path_factory.mktemp("panel-e2e")),
        SESSION_COOKIE_SECURE="false",
        TASK_MODE="thread",
        CACHE_KEY_PREFIX="panel-e2e",
    )
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    manage(env, "shell", "-c", "from tests.support.schema import tables_from_models; tables_from_models()")
    demo = json.loads(manage(env, "seed_demo", "--json"))
    manage(env, "shell", "-c", "from apps.kiosks.models import Kiosk; Kiosk.objects.update(online=False)")
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if requests.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except requests.ConnectionError:
                pass
            if time.monotonic() > deadline or server.poll() is not None:
                pytest.fail("daphne did not start")
            time.sleep(0.2)
        yield url, demo
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_dashboard_shows_a_kiosk_coming_online_live(chromium, daphne_server):
    url, demo = daphne_server
    burgers = next(owner for owner in demo["owners"] if owner["email"] == DEMO_OWNER)
    kiosk = burgers["kiosks"][0]
    context = chromium.new_context(base_url=url)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        page.goto("/panel/login")
        page.fill("input[name=email]", DEMO_OWNER)
        page.fill("input[name=password]", DEMO_PASSWORD)
        page.click("button[type=submit]")
        expect(page.locator("#live-state")).to_have_attribute("data-state", "connected")
        expect(page.locator("#live-state")).to_have_attribute("data-subscribed", "true", timeout=15_000)
        status = page.locator(f"#live-kiosks tr[data-kiosk-id='{kiosk['id']}'] .kiosk-status")
        expect(status).to_have_attribute("data-online", "false")

        heartbeat = requests.post(
            f"{url}/api/public/kiosks/heartbeat",
            headers={"X-Device-Id": kiosk["device_id"], "X-Device-Token": kiosk["device_token"]},
            timeout=10,
        )
        assert heartbeat.status_code in (200, 204), heartbeat.text
        expect(status).to_have_attribute("data-online", "true", timeout=15_000)
        expect(status).to_contain_text("online")
        assert errors == []
    except Exception:
        (ROOT / "test-artifacts").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "test-artifacts" / "realtime_e2e.png"), full_page=True)
        raise
    finally:
        context.close()
