"""The super-admin (/admin/) and the interactive API docs (/api/docs/, Swagger UI served from this
host) send the strict Content-Security-Policy of apps/api/csp.py, and in a real Chromium both
work under it without a single console error: the docs render the schema (their start-up script
is a file of their own, their style rules a style sheet), the admin signs in and shows its lists
and forms. An injected inline script does not run on either."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from apps.api.csp import POLICY
from tests import factories
from tests.support.browser import new_page
from tests.support.live import SERVER_CHECKED_HASHERS


def directives(header: str) -> dict[str, list[str]]:
    """The policy's directives: in another process django-csp orders them its own way."""
    return {name: values for name, *values in (part.split() for part in header.split(";"))}


@pytest.mark.parametrize("path", ["/api/docs/", "/admin/login/", "/admin/"])
def test_the_docs_and_the_admin_send_the_strict_policy(db, path):
    assert Client().get(path)["Content-Security-Policy"] == POLICY


def test_the_docs_page_has_no_inline_script_or_style(db):
    page = Client().get("/api/docs/").content.decode()
    assert "<style" not in page and "<script>" not in page and 'src="/api/docs/?script="' in page
    script = Client().get("/api/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")
    assert "/api/schema/" in script.content.decode() and '"validatorUrl": null' in script.content.decode()


def _injected_script_does_not_run(page) -> None:
    """The browser refuses the script and says so (a console message naming the policy)."""
    with page.expect_console_message(lambda message: "Content Security Policy" in message.text, timeout=10_000):
        page.evaluate(
            """() => { const s = document.createElement("script"); s.textContent = "window.injected = 1";
                       document.body.appendChild(s); }"""
        )
    assert page.evaluate("() => window.injected === undefined")


@pytest.mark.live
def test_the_docs_and_the_admin_work_under_the_policy_in_a_browser(live_db, shared_live_server, chromium, settings):
    settings.PASSWORD_HASHERS = SERVER_CHECKED_HASHERS  # the admin signs in on the server
    admin = factories.UserFactory(is_staff=True, is_superuser=True)
    kiosk = factories.KioskFactory()
    context, page = new_page(chromium, shared_live_server.base_url, (1280, 860))
    try:
        response = page.goto("/api/docs/")
        assert directives(response.headers["content-security-policy"]) == directives(POLICY)
        expect(page.locator(".swagger-ui .info .title")).to_contain_text("Kiosk ordering service API")
        expect(page.locator(".opblock").first).to_be_visible()  # the operations, from the schema
        page.wait_for_load_state("networkidle")
        page.console_errors.assert_none()
        _injected_script_does_not_run(page)

        page.console_errors.clear()
        page.goto("/admin/login/")
        page.fill("#id_username", admin.email)
        page.fill("#id_password", factories.PASSWORD)
        page.click("input[type=submit]")
        expect(page.locator("#user-tools")).to_contain_text("Log out")  # signed in
        for path in ("/admin/", "/admin/accounts/user/", f"/admin/kiosks/kiosk/{kiosk.pk}/change/",
                     "/admin/accounts/user/add/"):  # fmt: skip
            assert directives(page.goto(path).headers["content-security-policy"]) == directives(POLICY)
            page.wait_for_load_state("networkidle")
        page.console_errors.assert_none()
        _injected_script_does_not_run(page)
    finally:
        context.close()
