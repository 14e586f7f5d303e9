"""The panel's Reports page, its CSV exports and drill-down, and a session's timeline, over the
Madrid scene of tests/support/reports.py (figures hand-computed there)."""

import csv
import io
import re
from datetime import timedelta

import pytest

from apps.chat.models import ChatMessage
from apps.core.models import DomainEvent
from apps.panel.labels import REPORT_METRICS, report_metric_label
from apps.reports.sessions_report import METRICS
from apps.sessions.models import Session
from tests import factories
from tests.support.reports import FROM, TO, TOTALS, build_scene

RANGE = {"preset": "custom", "date_from": FROM, "date_to": TO}


@pytest.fixture
def scene(db):
    return build_scene()


@pytest.fixture
def owner(scene):
    """The scene's owner: `owner_client` (tests/conftest.py) signs in as them."""
    return scene.business.owner


def csv_of(response) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.streaming
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_the_table_shows_every_metric_by_day_with_the_totals(owner_client):
    response = owner_client.get("/panel/reports", {**RANGE, "group_by": "day"})
    assert response.status_code == 200
    page = response.content.decode()
    assert "days and hours in Europe/Madrid" in page and 'id="report-chart"' in page
    body = response.context["body"]
    assert body["totals"]["sessions_started"] == TOTALS["sessions_started"]
    assert [row["key"]["id"] for row in body["rows"]] == ["2026-10-24", "2026-10-25"]
    totals = response.context["body"]["totals"]["cells"]
    assert totals[:5] == ["5", "3", "20.0", "36.0", "40.0%"] and "45.00 USD" in totals  # revenue_cents
    for name in TOTALS:
        assert f'<th class="num" title="{name} in the CSV">{report_metric_label(name)}</th>' in page
    assert "<script>" not in page and "onclick" not in page


def test_a_manager_may_open_reports_and_the_default_is_the_last_7_days(scene, client):
    client.force_login(factories.PanelUserFactory(owner=scene.business.owner, panel_role="manager"))
    response = client.get("/panel/reports")
    assert response.status_code == 200
    report = response.context["report"]
    assert (report.last_day - report.first_day).days == 6 and report.timezone == "Europe/Madrid"


def test_a_bad_custom_range_is_said_in_words(owner_client):
    response = owner_client.get("/panel/reports", {"preset": "custom", "date_from": TO, "date_to": FROM})
    assert response.status_code == 422
    assert "The last day is before the first." in response.content.decode()


def test_the_table_csv_matches_the_api_names_and_figures(owner_client, scene):
    rows = csv_of(owner_client.get("/panel/reports/table.csv", {**RANGE, "group_by": "agent"}))
    assert rows[0][:4] == ["agent_id", "agent", "sessions_started", "sessions_answered"]
    assert rows[0][2:] == list(TOTALS)
    by_name = {row[1]: dict(zip(rows[0], row, strict=True)) for row in rows[1:]}
    assert set(by_name) == {"Ana", "Ben", "No agent", "totals"}
    assert by_name["Ana"]["revenue_cents"] == "3500" and by_name["Ana"]["offer_acceptance"] == "0.5"
    assert by_name["totals"]["answer_seconds_p90"] == "36.0" and by_name["totals"]["refunds_cents"] == "500"


def test_the_session_rows_csv_has_one_line_per_session_in_local_time(owner_client, scene):
    rows = csv_of(owner_client.get("/panel/reports/sessions.csv", RANGE))
    header, lines = rows[0], rows[1:]
    assert header == [
        "session", "started_at", "answered_at", "ended_at", "answer_seconds", "handle_seconds", "agent", "kiosk",
        "language", "outcome", "order_status", "order_total_cents",
    ]  # fmt: skip
    ids = [scene.sessions[name].public_id for name in ("S1", "S2", "S3", "S4", "S5")]
    assert [line[0] for line in lines] == ids
    s1, s3, s4, s5 = lines[0], lines[2], lines[3], lines[4]
    assert s1[1:3] == ["2026-10-24T23:59:50+02:00", "2026-10-25T00:00:10+02:00"]
    assert s1[4:] == ["20.0", "300.0", "Ana", "K1", "es-ES", "sale", "confirmed", "2000"]
    assert s3[1] == "2026-10-25T02:30:00+02:00" and s3[9] == "abandoned waiting" and s3[11] == "0"
    assert s4[1] == "2026-10-25T02:30:00+01:00" and s4[9:] == ["abandoned after answer", "draft", "4000"]
    assert s5[6] == "" and s5[9] == "self-service sale"


def test_drill_down_lists_the_sessions_behind_a_figure(owner_client, scene):
    hour_two = owner_client.get("/panel/reports/sessions", {**RANGE, "group_by": "hour", "key": "2"})
    assert hour_two.status_code == 200
    assert [s.public_id for s in hour_two.context["page"]] == [
        scene.sessions["S3"].public_id,
        scene.sessions["S4"].public_id,
    ]
    nobody = owner_client.get("/panel/reports/sessions", {**RANGE, "group_by": "agent", "key": ""})
    assert [s.public_id for s in nobody.context["page"]] == [
        scene.sessions["S3"].public_id,
        scene.sessions["S5"].public_id,
    ]
    rows = csv_of(owner_client.get("/panel/reports/sessions.csv", {**RANGE, "group_by": "kiosk", "key": scene.k2.pk}))
    assert [row[0] for row in rows[1:]] == [scene.sessions["S3"].public_id, scene.sessions["S4"].public_id]
    assert owner_client.get("/panel/reports/sessions", {**RANGE, "group_by": "hour", "key": "25"}).status_code == 404
    page = owner_client.get("/panel/reports", {**RANGE, "group_by": "hour"}).content.decode()
    assert (
        "/panel/reports/sessions?preset=custom&amp;date_from=2026-10-24&amp;date_to=2026-10-25&amp;group_by=hour&amp;key=2"
        in page
    )


def test_a_sessions_timeline_shows_offers_the_transfer_and_the_end(owner_client, scene):
    s4 = scene.sessions["S4"]
    DomainEvent.objects.create(
        name="session.ended", owner=s4.owner, payload={"session_id": s4.pk}, created_at=s4.ended_at
    )
    DomainEvent.objects.create(name="session.ended", owner=s4.owner, payload={"session_id": 0}, created_at=s4.ended_at)
    response = owner_client.get(f"/panel/reports/sessions/{s4.public_id}")
    assert response.status_code == 200
    steps = [(moment.what, moment.detail) for moment in response.context["timeline"]]
    assert steps == [
        ("Started", "K2, en-GB"),
        ("Offered", "to Ben: accepted"),
        ("Accepted", "by Ben"),
        ("Cart started", f"order {scene.orders['S4'].number}"),
        ("Transferred", "to Ana"),
        ("Event", "session.ended"),
        ("Ended", "abandoned (customer_abandoned)"),
    ]


def test_a_sessions_timeline_shows_its_chat_in_order_with_who_wrote_each_message(owner_client, scene):
    s4 = scene.sessions["S4"]

    def write(session, seconds, text, agent=None):
        at = s4.accepted_at + timedelta(seconds=seconds)
        sender = "agent" if agent else "kiosk"
        ChatMessage.objects.create(session=session, sender=sender, agent=agent, text=text, created_at=at)

    # Written out of order: the timeline orders by time (Ben before the transfer, Ana after it).
    write(s4, 60, "Anything else?", scene.ana)
    write(s4, 20, "Can you repeat?")
    write(s4, 25, "<b>Large</b> burger?", scene.ben)
    write(s4, 70, "No")
    write(scene.sessions["S1"], 21, "Another session")

    response = owner_client.get(f"/panel/reports/sessions/{s4.public_id}")
    assert response.status_code == 200
    steps = [(moment.what, moment.detail) for moment in response.context["timeline"]]
    assert steps == [
        ("Started", "K2, en-GB"),
        ("Offered", "to Ben: accepted"),
        ("Accepted", "by Ben"),
        ("Message from the customer", "Can you repeat?"),
        ("Message from Ben", "<b>Large</b> burger?"),
        ("Cart started", f"order {scene.orders['S4'].number}"),
        ("Transferred", "to Ana"),
        ("Message from Ana", "Anything else?"),
        ("Message from the customer", "No"),
        ("Ended", "abandoned (customer_abandoned)"),
    ]
    html = response.content.decode()
    assert "<b>Message from Ben</b> &lt;b&gt;Large&lt;/b&gt; burger?" in html  # shown as text, never as markup
    assert "Another session" not in html


def test_another_owners_data_is_never_shown(scene, client):
    client.force_login(factories.PanelUserFactory(owner=factories.BusinessFactory().owner, panel_role="owner"))
    response = client.get("/panel/reports", {**RANGE, "group_by": "day"})
    assert response.context["body"]["totals"]["sessions_started"] == 0
    assert len(csv_of(client.get("/panel/reports/sessions.csv", RANGE))) == 1  # the header only
    assert client.get(f"/panel/reports/sessions/{scene.sessions['S1'].public_id}").status_code == 404
    assert Session.objects.filter(owner=scene.business.owner).count() == 7


def test_the_session_rows_csv_rounds_a_tie_up_and_ends_lines_as_copy_does(owner_client, scene):
    """Both paths (PostgreSQL's COPY, the csv.writer path of the embedded SQLite) print the same
    bytes: a 12.25 s answer is 12.3, lines end with \\n (tests/reports/test_session_copy.py)."""
    started = scene.sessions["S1"].created_at + timedelta(minutes=1, milliseconds=250)
    tie = factories.SessionFactory(
        kiosk=scene.k1, status="completed", created_at=started,
        accepted_at=started + timedelta(seconds=12.25), ended_at=started + timedelta(seconds=100.3),
    )  # fmt: skip
    response = owner_client.get("/panel/reports/sessions.csv", RANGE)
    body = b"".join(response.streaming_content).decode()
    assert "\r" not in body and body.endswith("\n")
    [line] = [row for row in csv.reader(io.StringIO(body)) if row[0] == tie.public_id]
    assert line[4:6] == ["12.3", "88.1"]


# --- As the owner reads it ------------------------------------------------------------------


def _cells_of(page: str, row_id: str) -> list[str]:
    row = re.search(rf'<tr id="{row_id}">(.*?)</tr>', page, re.S)
    assert row is not None
    return [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r'<td class="num">(.*?)</td>', row.group(1), re.S)]


def test_money_columns_show_money_in_the_currency_and_the_csv_keeps_cents(owner_client, scene):
    scene.business.__class__.objects.filter(pk=scene.business.pk).update(currency="EUR")
    page = owner_client.get("/panel/reports", {**RANGE, "group_by": "day"}).content.decode()
    totals = dict(zip(METRICS, _cells_of(page, "report-totals"), strict=True))
    assert totals["revenue_cents"] == "45.00 EUR"  # 4500 cents: money, not a count of cents
    assert totals["average_order_cents"].endswith(" EUR") and totals["refunds_cents"].endswith(" EUR")
    table = csv_of(owner_client.get("/panel/reports/table.csv", {**RANGE, "group_by": "day"}))
    assert table[-1][table[0].index("revenue_cents")] == "4500"


def test_headers_are_words_and_the_csv_keeps_the_api_names(owner_client):
    page = owner_client.get("/panel/reports", {**RANGE, "group_by": "agent"}).content.decode()
    head = re.search(r'<table id="report-table">\s*<thead>(.*?)</thead>', page, re.S).group(1)
    headers = [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<th[^>]*>(.*?)</th>", head)]
    assert headers[0] == "Agent" and headers[1:] == [REPORT_METRICS[name] for name in METRICS]
    assert all("_" not in header for header in headers)
    assert "Revenue" in headers and "Answer time, median (s)" in headers
    breaks = re.search(r'<table id="report-breaks">\s*<thead>(.*?)</thead>', page, re.S).group(1)
    assert "break_seconds</th>" not in breaks
    legend = re.search(r'<p class="legend">(.*?)</p>', page, re.S).group(1)
    assert "Sessions started" in legend and "sessions_started" not in legend
    table = csv_of(owner_client.get("/panel/reports/table.csv", {**RANGE, "group_by": "agent"}))
    assert table[0][:4] == ["agent_id", "agent", "sessions_started", "sessions_answered"]


@pytest.mark.parametrize(
    ("query", "shown"),
    [({}, "day"), ({"preset": "today"}, "day"), ({**RANGE}, "day"), ({**RANGE, "group_by": "kiosk"}, "kiosk")],
)
def test_the_group_by_control_reads_what_the_table_is_by(owner_client, query, shown):
    response = owner_client.get("/panel/reports", query)
    assert response.context["group_by"] == shown
    page = response.content.decode()
    select = re.search(r'<select name="group_by"[^>]*>(.*?)</select>', page, re.S).group(1)
    assert re.findall(r'<option value="(\w+)" selected>', select) == [shown]
    assert 'for="id_group_by">Group by</label>' in page


def test_chart_labels_are_whole(owner_client):
    page = owner_client.get("/panel/reports", {**RANGE, "group_by": "day"}).content.decode()
    labels = re.search(r'<ol id="report-chart-labels"[^>]*>(.*?)</ol>', page, re.S).group(1)
    assert re.findall(r"<li>(.*?)</li>", labels) == ["2026-10-24", "2026-10-25"]
    chart = page[page.index('id="report-chart"') : page.index('id="report-table"')]
    assert "…" not in chart and "..." not in chart


def test_time_on_break_shows_each_agents_seconds_and_hours_minutes_seconds(owner_client, scene):
    from apps.reports.models import AgentBreak
    from tests.support.reports import utc

    start = utc(2026, 10, 24, 10, 0, 0)  # inside the range, Madrid time
    AgentBreak.objects.create(
        agent=scene.ana, owner=scene.business.owner, started_at=start, ended_at=start + timedelta(seconds=3723)
    )
    page = owner_client.get("/panel/reports", RANGE).content.decode()
    row = re.search(rf'<tr data-agent="{scene.ana.pk}">(.*?)</tr>', page, re.S).group(1)
    cells = re.findall(r'<td class="num">(.*?)</td>', row)
    assert "Ana" in row and cells == ["3723", "1:02:03"]
