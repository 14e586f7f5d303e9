"""Kiosk API: GET /sessions/{id}/order, the cart as the agent last sent it; GET and POST
/sessions/{id}/dining, the customer's eat in or take away before paying."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.inputs import validated
from apps.api.views import KioskAPIView, KioskRequest
from apps.orders import selectors, services
from apps.orders.bodies import OrderOut, order_body
from apps.orders.models import Dining
from apps.sessions import selectors as session_selectors


class SessionOrderView(KioskAPIView):
    @extend_schema(responses={200: OrderOut}, summary="The session's current order (empty before the first cart)")
    def get(self, request: KioskRequest, public_id: str) -> Response:
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        session.business = request.auth.business
        return Response(order_body(session, selectors.order_for_session(session)))


class DiningIn(serializers.Serializer[None]):
    dining = serializers.ChoiceField(choices=Dining.values)


DiningOut = inline_serializer(
    "DiningOut",
    {
        "ask": serializers.BooleanField(help_text="Whether the kiosk asks (the owner may turn the question off)."),
        "dining": serializers.ChoiceField(choices=Dining.values, allow_null=True),
    },
)


class SessionDiningView(KioskAPIView):
    @extend_schema(responses={200: DiningOut}, summary="Whether to ask eat in or take away, and the answer so far")
    def get(self, request: KioskRequest, public_id: str) -> Response:
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        order = selectors.order_for_session(session)
        return Response(
            {
                "ask": selectors.asks_dining(request.auth.business_id),
                "dining": (order.dining or None) if order else None,
            }
        )

    @extend_schema(request=DiningIn, responses={200: DiningOut}, summary="The customer chooses eat in or take away")
    def post(self, request: KioskRequest, public_id: str) -> Response:
        data = validated(DiningIn, request.data)
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        order = services.order_set_dining(session=session, dining=data["dining"])
        return Response({"ask": selectors.asks_dining(request.auth.business_id), "dining": order.dining})
