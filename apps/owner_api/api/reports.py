"""Owner API reports (reports:read): /api/v1/reports' own views behind this surface's
authentication; they read `request.user.owner_id`, here the API key's owner."""

from drf_spectacular.utils import extend_schema, extend_schema_view

from apps.owner_api.api.base import OwnerAPIView
from apps.owner_api.scopes import Scope
from apps.reports.api.integrations import ItemReportView, SessionReportView


@extend_schema_view(
    get=extend_schema(description="Needs `reports:read`. The same query and body as GET /api/v1/reports/sessions.")
)
class OwnerSessionReportView(OwnerAPIView, SessionReportView):
    required_scopes = {"GET": Scope.REPORTS_READ}


@extend_schema_view(
    get=extend_schema(description="Needs `reports:read`. The same query and body as GET /api/v1/reports/items.")
)
class OwnerItemReportView(OwnerAPIView, ItemReportView):
    required_scopes = {"GET": Scope.REPORTS_READ}
