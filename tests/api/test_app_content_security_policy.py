"""The Content-Security-Policy of the agent dashboard and the kiosk app (apps/api/csp.py), so that a
script injected into either cannot run: the panel's strict policy plus exactly what the video SDK
and the processor's card element need. In a real Chromium both apps start under it without a violation, and an
injected inline script does not run. (The kiosk and agent browser suites run under it too, and
fail on any console error.)"""

import pytest
from django.test import Client
from playwright.sync_api import expect

from apps.api.csp import APP_POLICY, POLICY
from tests.support.browser import new_page


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.mark.parametrize("path", ["/agent/", "/kiosk/"])
def test_the_apps_send_the_app_policy(db, path):
    response = Client().get(path)
    assert response.status_code == 200
    policy = directives(response["Content-Security-Policy"])
    assert response["Content-Security-Policy"] == APP_POLICY
    # Scripts: this origin and the processor's library, never inline or eval.
    assert policy["script-src"] == ["'self'", "https://js.stripe.com", "https://*.js.stripe.com"]
    assert policy["style-src"] == ["'self'"]
    assert policy["default-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert policy["base-uri"] == ["'self'"]  # the kiosk shell's <base> at its static folder
    # The card element's frames (3-D Secure included) and API, as the processor documents them.
    assert policy["frame-src"] == ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"]
    assert "https://api.stripe.com" in policy["connect-src"]
    # The video SDK: the provider's hosts over https and wss on any port, its workers from blob:.
    for host in ("*.agora.io", "*.sd-rtn.com"):
        assert {f"https://{host}:*", f"wss://{host}:*"} <= set(policy["connect-src"])
    assert policy["worker-src"] == ["'self'", "blob:"]
    assert policy["connect-src"][0] == "'self'"  # the real-time server and the API are this origin
    assert not [s for s in policy["connect-src"] if s in ("*", "https:", "wss:", "ws:")]


@pytest.mark.parametrize("path", ["/kitchen/", "/board/", "/panel/login"])
def test_the_screens_without_video_or_card_get_the_strict_policy(db, path):
    assert Client().get(path)["Content-Security-Policy"] == POLICY  # (on a 404 too, until a screen is there)


def test_the_api_and_static_files_are_left_alone(db):
    for path in ("/api/public/kiosks/me", "/healthz", "/static/kiosk/main.js"):
        assert "Content-Security-Policy" not in Client().get(path), path


@pytest.mark.live
def test_both_apps_start_under_the_policy_and_an_injected_script_does_not_run(chromium, shared_live_server):
    for path, started in (("/kiosk/", "body[data-screen='pairing']"), ("/agent/", "#signin:not([hidden])")):
        context, page = new_page(chromium, shared_live_server.base_url, (1280, 860))
        try:
            response = page.goto(path)
            # Another process: django-csp's directive order is its own, each directive's the same.
            assert directives(response.headers["content-security-policy"]) == directives(APP_POLICY)
            expect(page.locator(started)).to_be_visible()
            page.wait_for_load_state("networkidle")
            assert not [e for e in page.console_errors if "Content Security Policy" in e], page.console_errors
            # The browser refuses the script and says so (a console message naming the policy).
            with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
                page.evaluate(
                    """() => { const s = document.createElement("script"); s.textContent = "window.injected = 1";
                               document.body.appendChild(s); }"""
                )
            assert page.evaluate("() => window.injected === undefined"), path
        finally:
            context.close()
