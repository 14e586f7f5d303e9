"""Token API: GET /api/v1/reports/sessions and /api/v1/reports/items, for the token's owner."""

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.api.inputs import validated
from apps.api.views import AgentRequest, TokenAPIView
from apps.reports.api.bodies import ItemReportOut, ReportQueryIn, SessionReportOut, SessionReportQueryIn
from apps.reports.items_report import items_report
from apps.reports.ranges import ReportRange, report_range
from apps.reports.sessions_report import session_report

_DEFINITIONS = "Every metric is defined in docs/reports.md; days are the business's (its `timezone`)."


def _range(request: AgentRequest, query: dict[str, Any]) -> ReportRange:
    assert request.user.owner_id is not None  # HasOwnerToken refused an ownerless token
    return report_range(
        owner_id=request.user.owner_id,
        first_day=query["from"],
        last_day=query["to"],
        business_id=query.get("business"),
    )


def _head(report: ReportRange) -> dict[str, str]:
    return {"from": report.first_day.isoformat(), "to": report.last_day.isoformat(), "timezone": report.timezone}


class SessionReportView(TokenAPIView):
    @extend_schema(
        parameters=[SessionReportQueryIn],
        responses={200: SessionReportOut},
        summary="Sessions, answer and handle times, abandonment, conversion and revenue per group",
        description=_DEFINITIONS,
    )
    def get(self, request: AgentRequest) -> Response:
        query = validated(SessionReportQueryIn, request.query_params)
        report = _range(request, query)
        body = session_report(report, query["group_by"])
        return Response({**_head(report), "group_by": query["group_by"], **body})


class ItemReportView(TokenAPIView):
    @extend_schema(
        parameters=[ReportQueryIn],
        responses={200: ItemReportOut},
        summary="Sales by item and by modifier option (paid orders of the range's sessions)",
        description=_DEFINITIONS,
    )
    def get(self, request: AgentRequest) -> Response:
        query = validated(ReportQueryIn, request.query_params)
        report = _range(request, query)
        return Response({**_head(report), **items_report(report)})
