"""A strict Content-Security-Policy on the owner panel and the landing page: scripts and style
sheets from this origin only, no inline script, no framing, forms to this origin only. In a real
Chromium every panel page loads without a single violation, and an injected inline script does not
run."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from apps.api.csp import POLICY
from tests import factories
from tests.panel.conftest import sign_in


def directives(header: str) -> dict[str, list[str]]:
    parsed = {}
    for part in header.split(";"):
        name, *values = part.split()
        parsed[name] = values
    return parsed


@pytest.mark.parametrize("path", ["/", "/panel/login", "/panel/login/2fa"])
def test_the_landing_page_and_the_panel_send_a_strict_policy(db, path):
    response = Client().get(path)
    policy = directives(response["Content-Security-Policy"])
    assert policy["script-src"] == ["'self'"]  # no 'unsafe-inline', no 'unsafe-eval'
    assert policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["form-action"] == ["'self'"]
    assert policy["default-src"] == ["'self'"]


def test_signed_in_panel_pages_send_it_too(owner):
    client = Client()
    client.force_login(factories.PanelUserFactory(owner=owner, panel_role="owner"))
    for path in ("/panel/", "/panel/orders", "/panel/webhooks", "/panel/account/two-factor"):
        assert client.get(path)["Content-Security-Policy"] == POLICY, path


@pytest.mark.parametrize("path", ["/healthz", "/api/public/kiosks/me"])
def test_other_surfaces_are_left_alone(db, path):
    assert "Content-Security-Policy" not in Client().get(path)


@pytest.mark.live
def test_every_panel_page_loads_without_a_policy_violation(page, live_server, panel_owner, business):
    order = factories.OrderFactory(session=factories.SessionFactory(kiosk=factories.KioskFactory(business=business)))
    factories.PaymentFactory(order=order, status="succeeded", reconciled_outcome="confirmed")
    sign_in(page, panel_owner.email)
    expect(page.locator("h1")).to_have_text("Dashboard")
    for path in (
        "/panel/kiosks",
        "/panel/agents",
        "/panel/orders",
        f"/panel/orders/{order.pk}",
        "/panel/sessions",
        "/panel/webhooks",
        "/panel/api-keys",
        "/panel/billing",
        "/panel/settings",
        "/panel/",
        "/",
    ):
        page.goto(path)
        page.wait_for_load_state("networkidle")
    page.goto("/panel/account/two-factor")
    page.click("text=Set up authenticator")
    expect(page.locator("img[src^='data:image/svg+xml']")).to_be_visible()  # the QR code, as data:
    page.console_errors.assert_none()


@pytest.mark.live
def test_an_injected_inline_script_does_not_run(page, live_server, panel_owner):
    sign_in(page, panel_owner.email)
    expect(page.locator("h1")).to_have_text("Dashboard")
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text):
        page.evaluate(
            """() => { const s = document.createElement("script"); s.textContent = "window.injected = true";
                       document.body.appendChild(s); }"""
        )
    assert page.evaluate("() => window.injected === undefined")
    assert any("Content Security Policy" in error for error in page.console_errors)
