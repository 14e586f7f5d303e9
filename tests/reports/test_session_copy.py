"""The session-rows CSV written by PostgreSQL's COPY prints what the portable path prints:
local times as Python's isoformat (microseconds only when there are some, offsets with their
minutes, negative and half-hour ones too), seconds to one decimal; one owner's sessions only."""

import csv
import io
from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection

from apps.reports.ranges import report_range
from apps.reports.session_copy import copy_csv
from apps.reports.session_rows import ROW_COLUMNS
from tests import factories

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="COPY is PostgreSQL's")


def _csv(report) -> list[list[str]]:
    return list(csv.reader(io.StringIO(b"".join(copy_csv(report)).decode())))


@pytest.mark.parametrize("zone", ["America/St_Johns", "Asia/Kolkata", "Europe/Madrid"])
def test_copy_prints_local_times_like_python(db, zone):
    business = factories.BusinessFactory(timezone=zone)
    kiosk = factories.KioskFactory(business=business, name="Front, left")  # a comma: quoted
    created = datetime(2026, 7, 1, 12, 0, 0, 250000, tzinfo=UTC)
    session = factories.SessionFactory(
        kiosk=kiosk, status="completed", created_at=created, accepted_at=created + timedelta(seconds=12.25),
        ended_at=datetime(2026, 7, 1, 12, 5, tzinfo=UTC), customer_locale="en-CA",
    )  # fmt: skip
    factories.SessionFactory(created_at=created, status="completed")  # another owner's
    report = report_range(owner_id=business.owner_id, first_day=date(2026, 7, 1), last_day=date(2026, 7, 1))
    header, *lines = _csv(report)
    assert header == list(ROW_COLUMNS)
    [line] = lines
    local = report.zone
    assert line[0] == session.public_id
    assert line[1:4] == [
        moment.astimezone(local).isoformat() for moment in (created, session.accepted_at, session.ended_at)
    ]
    # 12.25 s is a tie: COPY rounds it up, as the csv.writer path does (tests/panel/test_reports_page.py)
    assert line[4:] == ["12.3", "287.5", "", "Front, left", "en-CA", "completed", "", "0"]
