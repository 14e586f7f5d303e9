"""The kiosk app's shell at /kiosk/: the static index.html with a <base> at the static folder (so
its relative links load from there), no secret, nothing from a CDN, and the vendored libraries it
loads at run time are the ones the project vendors (the agent dashboard's)."""

import re

from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from apps.agent_app.vendor import AGORA_SDK, PUSHER_JS
from tests.support.processes import ROOT

KIOSK = ROOT / "static" / "kiosk"


def test_the_shell_is_the_static_page_with_a_base_at_the_static_folder(db):
    response = Client().get("/kiosk/")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response["Cache-Control"] == "no-cache"
    html = response.content.decode()
    assert '<base href="/static/kiosk/">' in html
    assert html.replace('\n  <base href="/static/kiosk/">', "") == (KIOSK / "index.html").read_text(encoding="utf-8")
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert {"config.js", "main.js", "kiosk.css"} <= set(sources)
    for source in ("config.js", "main.js", "kiosk.css"):
        assert Client().get(f"/static/kiosk/{source}").status_code == 200
    assert not [source for source in sources if source.startswith(("http:", "https:", "//"))], sources
    assert settings.REALTIME_APP_SECRET not in html


def test_the_slashless_path_redirects_with_its_query(db):
    answer = Client().get("/kiosk?api=http://127.0.0.1:9000")
    assert answer.status_code == 301
    assert answer.headers["Location"] == "/kiosk/?api=http://127.0.0.1:9000"


def test_the_app_loads_the_projects_vendored_libraries_not_copies():
    vendor = (KIOSK / "vendor.js").read_text(encoding="utf-8")
    assert f'PUSHER_JS = "{PUSHER_JS}"' in vendor
    assert f'AGORA_SDK = "{AGORA_SDK}"' in vendor
    assert finders.find(PUSHER_JS) and finders.find(AGORA_SDK)
    shipped = [path.name for path in KIOSK.rglob("*")]
    assert not [name for name in shipped if "pusher" in name.lower() or "agora" in name.lower()], shipped
    # Only the processor's own browser library comes from elsewhere, as processors require.
    code = [line for p in KIOSK.glob("*.js") for line in p.read_text(encoding="utf-8").splitlines()]
    code = [re.sub(r"(^|\s)//\s.*$", "", line) for line in code]  # comments name example hosts
    remote = set(re.findall(r"https://[^\s\"'`]+", "\n".join(code)))
    assert remote == {"https://js.stripe.com/v3/"}, remote
