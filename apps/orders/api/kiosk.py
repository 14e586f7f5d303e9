"""Kiosk API: GET /sessions/{id}/order, the cart as the agent last sent it."""

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from apps.api.views import KioskAPIView, KioskRequest
from apps.orders import selectors
from apps.orders.bodies import OrderOut, order_body
from apps.sessions import selectors as session_selectors


class SessionOrderView(KioskAPIView):
    @extend_schema(responses={200: OrderOut}, summary="The session's current order (empty before the first cart)")
    def get(self, request: KioskRequest, public_id: str) -> Response:
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        session.business = request.auth.business
        return Response(order_body(session, selectors.order_for_session(session)))
