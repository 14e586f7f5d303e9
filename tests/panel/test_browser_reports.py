"""An owner opens Reports in a real Chromium, picks a custom range and a grouping with the keyboard,
reads the chart and table, downloads the CSV and follows a figure to its sessions and a session's
timeline (its chat too); no console errors (the panel's CSP allows no inline script)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from apps.chat.models import ChatMessage
from tests import factories
from tests.panel.conftest import sign_in
from tests.support.reports import FROM, TO, build_scene

pytestmark = pytest.mark.live


def test_owner_reads_a_report_exports_it_and_drills_down(page):
    scene = build_scene()
    s4 = scene.sessions["S4"]
    ChatMessage.objects.create(session=s4, sender="kiosk", text="<i>Can</i> you repeat?", created_at=s4.accepted_at)
    owner = factories.PanelUserFactory(owner=scene.business.owner, panel_role="owner")
    sign_in(page, owner.email)
    page.click("nav >> text=Reports")
    expect(page.locator("h1")).to_have_text("Reports")
    page.select_option("#id_preset", "custom")
    page.fill("#id_date_from", FROM)
    page.fill("#id_date_to", TO)
    page.select_option("#id_group_by", "hour")
    page.focus("#report-query button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator("#report-range")).to_contain_text("Europe/Madrid")
    expect(page.locator("#report-chart rect")).to_have_count(72)  # 24 hours x 3 series
    hour_two = page.locator('#report-table tbody tr[data-key="2"]')
    expect(hour_two.locator("td").first).to_have_text("2")  # both 02:30 of the DST night
    expect(page.locator("#report-totals td").nth(12)).to_have_text("45.00 USD")  # revenue_cents
    expect(page.locator("#id_group_by")).to_have_value("hour")
    # 24 labels under the bars, each whole and none clipped by its column.
    labels = page.locator("#report-chart-labels li")
    expect(labels).to_have_count(24)
    clipped = labels.evaluate_all(
        "items => items.filter(li => li.scrollWidth > li.clientWidth + 1 || li.scrollHeight > li.clientHeight + 1)"
        ".map(li => li.textContent)"
    )
    assert clipped == []

    with page.expect_download() as download:
        page.click("#export-table")
    lines = Path(download.value.path()).read_text().splitlines()
    assert lines[0].startswith("hour_id,hour,sessions_started,") and len(lines) == 26  # header, 24 hours, totals

    hour_two.locator("th a").click()
    expect(page.locator("h1")).to_have_text("Sessions behind the report")
    expect(page.locator("#report-sessions tbody tr")).to_have_count(2)
    page.locator(f'tr[data-session="{scene.sessions["S4"].public_id}"] a').first.click()
    expect(page.locator("#session-timeline")).to_contain_text("Transferred to Ana")
    expect(page.locator("#session-timeline li", has_text="Message from the customer")).to_have_text(
        re.compile(r"Message from the customer <i>Can</i> you repeat\?$")
    )
    page.console_errors.assert_none()
