"""Token API: GET /api/v1/reports/sessions and /api/v1/reports/items, for the token's owner."""

from collections.abc import Callable
from typing import Any, TypeVar

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentRequest, TokenAPIView
from apps.api.inputs import validated
from apps.reports.api.bodies import ItemReportOut, ReportQueryIn, SessionReportOut, SessionReportQueryIn
from apps.reports.items_report import items_report
from apps.reports.ranges import ReportRange, report_range
from apps.reports.sessions_report import session_report

_DEFINITIONS = "Every metric is defined in docs/reports.md; days are the business's (its `timezone`)."


View = TypeVar("View", bound=Callable[..., Response])


def _documented(
    query: type[ReportQueryIn], body: type[serializers.Serializer[None]], summary: str
) -> Callable[[View], View]:
    """A report's schema: its query, its body, and where its metrics are defined."""
    return extend_schema(parameters=[query], responses={200: body}, summary=summary, description=_DEFINITIONS)


def _asked(request: AgentRequest, query_in: type[ReportQueryIn]) -> tuple[dict[str, Any], ReportRange]:
    """The report's query and its range, in the owner's business's days."""
    query = validated(query_in, request.query_params)
    assert request.user.owner_id is not None  # HasOwnerToken refused an ownerless token
    first, last = query["from"], query["to"]
    return query, report_range(
        owner_id=request.user.owner_id, first_day=first, last_day=last, business_id=query.get("business")
    )


def _head(report: ReportRange) -> dict[str, str]:
    return {"from": report.first_day.isoformat(), "to": report.last_day.isoformat(), "timezone": report.timezone}


class SessionReportView(TokenAPIView):
    @_documented(
        SessionReportQueryIn,
        SessionReportOut,
        "Sessions, answer and handle times, abandonment, conversion and revenue per group",
    )
    def get(self, request: AgentRequest) -> Response:
        query, report = _asked(request, SessionReportQueryIn)
        body = session_report(report, query["group_by"])
        return Response({**_head(report), "group_by": query["group_by"], **body})


class ItemReportView(TokenAPIView):
    @_documented(
        ReportQueryIn, ItemReportOut, "Sales by item and by modifier option (paid orders of the range's sessions)"
    )
    def get(self, request: AgentRequest) -> Response:
        _query, report = _asked(request, ReportQueryIn)
        return Response({**_head(report), **items_report(report)})
