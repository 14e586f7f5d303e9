"""Reports (owners and managers): the sessions report of apps/reports for a range in the
business's time zone, as a chart and a table, each figure linking to the sessions behind it;
CSV exports of the table and of those sessions (streamed); a session's timeline."""

import csv
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.db import connection
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, QueryDict, StreamingHttpResponse

from apps.panel.access import ANY_ROLE, PanelRequest, panel_page
from apps.panel.labels import report_metric_label
from apps.panel.pages import businesses_of, render_page
from apps.panel.report_forms import DEFAULT_GROUP, GROUP_LABELS, ReportQueryForm
from apps.panel.templatetags.panel import money
from apps.reports import csv_cells
from apps.reports.agent_load import agent_load
from apps.reports.ranges import ReportRange, owner_time_zone, report_range, today_in
from apps.reports.session_copy import copy_csv
from apps.reports.session_rows import ROW_COLUMNS, export_rows, parse_key, sessions_behind
from apps.reports.sessions_report import METRICS, session_report
from apps.reports.timeline import session_timeline
from apps.sessions import selectors as session_selectors
from apps.sessions.models import Session

PAGE_SIZE = 50
CSV_TYPE = "text/csv; charset=utf-8"
CHART_METRICS = ("sessions_started", "sessions_answered", "paid_orders")

# A row of apps/reports' sessions report: {key: {id, name}, metric: value, ...}.
ReportRow = dict[str, Any]


def _query(request: PanelRequest) -> tuple[ReportQueryForm, ReportRange | None, str]:
    data = request.GET.copy() if request.GET else QueryDict("preset=last_7", mutable=True)
    if not data.get("group_by"):
        data["group_by"] = DEFAULT_GROUP  # so the control reads what the table is by
    form = ReportQueryForm(data)
    if not form.is_valid():
        return form, None, DEFAULT_GROUP
    first, last = form.days(today_in(owner_time_zone(request.user.owner_id)))
    report = report_range(owner_id=request.user.owner_id, first_day=first, last_day=last)
    return form, report, form.cleaned_data.get("group_by") or DEFAULT_GROUP


def _range_query(report: ReportRange, group_by: str, **extra: object) -> str:
    return urlencode(
        {"preset": "custom", "date_from": report.first_day, "date_to": report.last_day, "group_by": group_by, **extra}
    )


def _chart(rows: list[ReportRow]) -> dict[str, object]:
    """SVG bars (0..100 units tall, 30 wide per row) of the chart metrics, scaled to the tallest."""
    peak = max([row[name] for row in rows for name in CHART_METRICS] or [0]) or 1
    groups = []
    for index, row in enumerate(rows):
        rects = []
        for series, name in enumerate(CHART_METRICS):
            height = round(100 * row[name] / peak, 1)
            x = index * 30 + 3 + series * 8
            rects.append(
                {
                    "series": series,
                    "x": x,
                    "y": 100 - height,
                    "height": height,
                    "value": row[name],
                    "name": report_metric_label(name),
                }
            )
        groups.append({"label": row["key"]["name"], "x": index * 30 + 15, "rects": rects})
    legend = [{"index": index, "label": report_metric_label(name)} for index, name in enumerate(CHART_METRICS)]
    return {"groups": groups, "width": max(30 * len(rows), 30), "peak": peak, "series": legend}


def _duration(seconds: int) -> str:
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


def _cell(name: str, value: float | None, currency: str) -> str:
    """A metric as the table shows it (the CSV keeps the raw value): money as the panel writes
    it ("1,234.50 EUR")."""
    if value is None:
        return "—"
    if name.endswith("_share") or name in ("conversion", "offer_acceptance"):
        return f"{100 * value:.1f}%"
    if name.endswith("_cents"):
        return money(int(value), currency)
    return str(value)


def _currency(request: PanelRequest) -> str:
    """The currency of the owner's businesses; "" when they use several (amounts alone)."""
    currencies = set(businesses_of(request).values_list("currency", flat=True))
    return currencies.pop() if len(currencies) == 1 else ""


@panel_page(ANY_ROLE)
def reports_page(request: PanelRequest) -> HttpResponse:
    form, report, group_by = _query(request)
    metrics = [{"name": name, "label": report_metric_label(name)} for name in METRICS]
    context: dict[str, object] = {"form": form, "report": report, "group_by": group_by, "metrics": metrics}
    if report is not None:
        body = session_report(report, group_by)
        currency = _currency(request)
        for row in body["rows"]:
            row["drill"] = _range_query(report, group_by, key="" if row["key"]["id"] is None else row["key"]["id"])
            row["cells"] = [_cell(name, row[name], currency) for name in METRICS]
        # The totals and the breaks are typed figures: the table's extra cells go on copies.
        totals = {**body["totals"], "cells": [_cell(name, body["totals"][name], currency) for name in METRICS]}
        breaks = [{**row, "duration": _duration(row["break_seconds"])} for row in body["agent_breaks"]]
        load = [
            {
                **row,
                "signed_in": _duration(row["signed_in_seconds"]),
                "serving": _duration(row["serving_seconds"]),
                "video": _cell("video_share", row["video_share"], currency),
            }
            for row in body["agent_load"]
        ]
        context.update(
            body={**body, "totals": totals, "agent_breaks": breaks, "agent_load": load},
            chart=_chart(body["rows"]),
            group_label=GROUP_LABELS[group_by],
            query=_range_query(report, group_by),
        )
    status = 200 if report is not None else 422
    return render_page(request, "panel/reports.html", context, section="reports", status=status)


class _Echo:
    """csv.writer writes into this and gets each line back: nothing accumulates."""

    def write(self, value: str) -> str:
        return value


def _csv_response(filename: str, header: Sequence[str], rows: Iterable[list[object]]) -> StreamingHttpResponse:
    # Lines end with \n as PostgreSQL's COPY ends them; the writer is told \r\n so that, as COPY,
    # it quotes a cell holding a carriage return (it quotes only its line terminator's characters).
    writer = csv.writer(_Echo(), lineterminator="\r\n")
    lines = (writer.writerow(csv_cells.row(row))[:-2] + "\n" for row in _with_header(header, rows))
    response = StreamingHttpResponse(lines, content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _with_header(header: Sequence[str], rows: Iterable[list[object]]) -> Iterator[list[object]]:
    yield list(header)
    yield from rows


@panel_page(ANY_ROLE)
def reports_table_csv(request: PanelRequest) -> StreamingHttpResponse:
    form, report, group_by = _query(request)
    if report is None:
        raise Http404("Choose a valid range.")
    body = session_report(report, group_by)
    rows: list[list[object]] = [
        [row["key"]["id"], row["key"]["name"], *(row[name] for name in METRICS)] for row in body["rows"]
    ]
    rows.append(["", "totals", *(body["totals"][name] for name in METRICS)])
    name = f"report-{group_by}-{report.first_day}-{report.last_day}.csv"
    return _csv_response(name, [f"{group_by}_id", group_by, *METRICS], rows)


AGENT_LOAD_FIELDS = (
    "signed_in_seconds",
    "sessions_answered",
    "sessions_per_hour",
    "sessions_held_avg",
    "serving_seconds",
    "video_seconds",
    "video_share",
)


@panel_page(ANY_ROLE)
def reports_agents_csv(request: PanelRequest) -> StreamingHttpResponse:
    """The agents' load of the range (the API's `agent_load`), one line per agent."""
    form, report, group_by = _query(request)
    if report is None:
        raise Http404("Choose a valid range.")
    rows: list[list[object]] = [
        [row["agent"]["id"], row["agent"]["name"], *(row[name] for name in AGENT_LOAD_FIELDS)]  # type: ignore[literal-required]
        for row in agent_load(report)
    ]
    name = f"agents-{report.first_day}-{report.last_day}.csv"
    return _csv_response(name, ["agent_id", "agent", *AGENT_LOAD_FIELDS], rows)


def _drill_key(request: PanelRequest, group_by: str) -> tuple[str | None, object]:
    """(group_by, key) of the group asked for, (None, None) for the whole range."""
    if "key" not in request.GET:
        return None, None
    try:
        return group_by, parse_key(group_by, request.GET["key"])
    except ValueError as exc:
        raise Http404("No such group in this report.") from exc


def _drill_sessions(request: PanelRequest, report: ReportRange, group_by: str) -> QuerySet[Session]:
    return sessions_behind(report, *_drill_key(request, group_by))


def _local(value: datetime | None, report: ReportRange) -> str:
    return value.astimezone(report.zone).isoformat() if value is not None else ""


def _tenths(seconds: float | None) -> str:
    """Seconds to one decimal as COPY's `round(numeric, 1)` prints them: a tie goes up (12.25 ->
    12.3; Python's round would say 12.2). SQLite's julianday arithmetic is exact to the
    millisecond only, so the float is first taken to milliseconds."""
    if seconds is None:
        return ""
    return str(Decimal(repr(round(seconds, 3))).quantize(Decimal("0.1"), rounding=ROUND_HALF_UP))


@panel_page(ANY_ROLE)
def reports_sessions_csv(request: PanelRequest) -> StreamingHttpResponse:
    form, report, group_by = _query(request)
    if report is None:
        raise Http404("Choose a valid range.")
    filename = f"sessions-{report.first_day}-{report.last_day}.csv"
    if connection.vendor == "postgresql":  # the database writes the CSV (apps/reports/session_copy.py)
        response = StreamingHttpResponse(copy_csv(report, *_drill_key(request, group_by)), content_type=CSV_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response
    sessions = _drill_sessions(request, report, group_by)

    def rows() -> Iterator[list[object]]:
        for row in export_rows(sessions):
            started, answered, ended = (_local(value, report) for value in row[1:4])
            seconds = [_tenths(value) for value in row[4:6]]
            yield [row[0], started, answered, ended, *seconds, row[6] or "", row[7], row[8], *row[9:]]

    return _csv_response(filename, ROW_COLUMNS, rows())


@panel_page(ANY_ROLE)
def reports_sessions(request: PanelRequest) -> HttpResponse:
    form, report, group_by = _query(request)
    if report is None:
        raise Http404("Choose a valid range.")
    sessions = _drill_sessions(request, report, group_by).select_related("kiosk", "agent", "order")
    page = Paginator(sessions.order_by("created_at", "pk"), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"page": page, "report": report, "query": query.urlencode(), "group_label": GROUP_LABELS[group_by]}
    return render_page(request, "panel/report_sessions.html", context, section="reports")


@panel_page(ANY_ROLE)
def session_detail(request: PanelRequest, public_id: str) -> HttpResponse:
    sessions = session_selectors.sessions_of_owner(request.user.owner_id).select_related("kiosk", "agent", "business")
    session = sessions.filter(public_id=public_id).first()
    if session is None:
        raise Http404("No such session in your account.")
    context = {"session": session, "timeline": session_timeline(session), "zone": session.business.timezone}
    return render_page(request, "panel/session_timeline.html", context, section="reports")
