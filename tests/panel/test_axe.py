"""axe-core's WCAG 2.1 A and AA rules on the owner panel, in a real Chromium against the live
server: the sign-in page, the dashboard and the Kiosks page (where the kiosk's mount is set)
(tests/support/axe.py)."""

import pytest
from playwright.sync_api import expect

from tests import factories
from tests.panel.conftest import sign_in
from tests.support.axe import findings

pytestmark = pytest.mark.live


def test_the_panels_sign_in_dashboard_and_kiosks_have_no_wcag_21_aa_violation(page, panel_owner, business):
    factories.KioskFactory(business=business, name="Front counter")
    page.goto("/panel/login")
    faults, _ = findings(page, "sign-in")
    sign_in(page, panel_owner.email)
    expect(page.locator("nav")).to_be_visible()
    faults += findings(page, "dashboard")[0]
    page.click("nav >> text=Kiosks")
    expect(page.locator("#kiosk-table")).to_be_visible()
    faults += findings(page, "kiosks")[0]
    assert faults == [], "\n".join(faults)
    page.console_errors.assert_none()
