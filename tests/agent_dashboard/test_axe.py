"""axe-core's WCAG 2.1 A and AA rules on the agent dashboard, in a real Chromium against the live
server: the sign-in form, then the signed-in dashboard with the agent available (tests/support/axe.py)."""

import pytest
from playwright.sync_api import expect

from tests.agent_dashboard.conftest import assert_no_console_errors, sign_in_and_go_available
from tests.support.axe import findings

pytestmark = pytest.mark.live


def test_the_sign_in_and_the_dashboard_have_no_wcag_21_aa_violation(world, serve, open_dashboard):
    server = serve()
    page = open_dashboard(server)
    expect(page.locator("#signin-email")).to_be_visible(timeout=30_000)
    faults, _ = findings(page, "sign-in")
    sign_in_and_go_available(page, world.agents[0])
    faults += findings(page, "dashboard")[0]
    assert faults == [], "\n".join(faults)
    assert_no_console_errors(page)
