"""The dashboard's shell at /agent/: one static page with the public client configuration only, the
vendored libraries served from our own static files (never a CDN), linked from the owner panel."""

import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from apps.agent_app.vendor import AGORA_SDK, PUSHER_JS
from tests import factories


def test_the_shell_is_one_page_with_public_configuration_only(db):
    response = Client().get("/agent/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    config = json.loads(re.search(r'<script id="agent-config" type="application/json">(.*?)</script>', html).group(1))
    assert config == {
        "realtimeKey": settings.REALTIME_APP_KEY,
        "authEndpoint": "/broadcasting/auth",
        "forceTLS": False,
        "pollSeconds": 2,
        "reconnectSeconds": 5,  # a poll answering while the socket is down reconnects at most this often
        "chatMaxLength": settings.CHAT_MESSAGE_MAX_LENGTH,  # shown under the chat's box
        "chatOpenSeconds": settings.CHAT_AGENT_OPEN_SECONDS,  # the call not connected this long opens the chat
    }
    assert settings.REALTIME_APP_SECRET not in html
    sources = re.findall(r'(?:src|href|data-video-sdk)="([^"]+)"', html)
    assert f"/static/{PUSHER_JS}" in sources and f"/static/{AGORA_SDK}" in sources
    assert "/static/agent/main.js" in sources
    assert not [source for source in sources if source.startswith(("http:", "https:", "//"))], sources


def test_the_slashless_path_redirects_and_the_shell_needs_no_sign_in(db):
    assert Client().get("/agent").headers["Location"] == "/agent/"
    assert Client().get("/agent/?x=1").status_code == 200


def test_vendored_libraries_are_pinned_and_carry_their_licences():
    licences = {PUSHER_JS: "panel/vendor/pusher-js.LICENCE", AGORA_SDK: "vendor/agora-rtc-sdk-ng/LICENSE"}
    for path, licence in licences.items():
        assert finders.find(path), path
        assert finders.find(licence), licence
    sdk = Path(finders.find(AGORA_SDK)).read_text(encoding="utf-8")[:400]
    assert "AgoraWebSDK_N-v4.24.8" in sdk  # the pinned version, as AGORA_SDK's file name says
    assert "MIT License" in Path(finders.find(licences[AGORA_SDK])).read_text(encoding="utf-8")


def test_the_owner_panel_links_to_the_dashboard(owner):
    client = Client()
    client.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    html = client.get("/panel/").content.decode()
    assert 'href="/agent/" id="nav-agent-dashboard"' in html
