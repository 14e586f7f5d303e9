"""Agent API: GET /api/reports/me/today, the signed-in agent's own figures for today (the
dashboard's "My sessions today"), from the same by-agent report the panel's Agents page reads."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.accounts.models import Business
from apps.reports.api.bodies import MetricsOut
from apps.reports.ranges import today_in
from apps.reports.sessions_report import metrics_of, my_figures_today


class MyTodayOut(MetricsOut):
    day = serializers.DateField(help_text="Today in the business's time zone.")
    timezone = serializers.CharField(help_text="The IANA time zone `day` is in.")
    currency = serializers.CharField(help_text="ISO 4217 code of `revenue_cents` and `refunds_cents`.")


class MyTodayView(AgentAPIView):
    @extend_schema(
        responses={200: MyTodayOut},
        summary="This agent's figures for today (sessions, handle time, conversion, sales)",
        description="The agent's row of the sessions report grouped by agent for today (docs/reports.md).",
    )
    def get(self, request: AgentRequest) -> Response:
        owner_id = request.user.owner_id
        if owner_id is None:  # a platform agent: no owner, so no business, zone or sessions of its own
            day, zone, figures, currency = today_in("UTC"), "UTC", metrics_of({}), None
        else:
            report, figures = my_figures_today(owner_id=owner_id, agent_id=request.user.pk)
            day, zone = report.first_day, report.timezone
            businesses = Business.objects.filter(owner_id=owner_id).order_by("pk")
            currency = businesses.values_list("currency", flat=True).first()
        body = {**figures, "day": day.isoformat(), "timezone": zone}
        return Response({**body, "currency": currency or "USD"})
