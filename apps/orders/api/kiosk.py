"""Kiosk API: GET /sessions/{id}/order, the cart as the agent last sent it."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.views import KioskAPIView
from apps.orders import selectors
from apps.orders.representation import order_body
from apps.sessions import selectors as session_selectors


class ModifierOut(serializers.Serializer):
    group = serializers.CharField()
    value = serializers.CharField()


class OrderLineOut(serializers.Serializer):
    id = serializers.CharField()
    menu_item_id = serializers.CharField(allow_null=True)
    name = serializers.CharField()
    quantity = serializers.IntegerField()
    unit_price_cents = serializers.IntegerField()
    modifiers = ModifierOut(many=True)
    notes = serializers.CharField(required=False)


class OrderOut(serializers.Serializer):
    """Schema of `apps.orders.representation.order_body`."""

    session_id = serializers.CharField()
    order_number = serializers.CharField(allow_null=True)
    status = serializers.CharField(allow_null=True)
    currency = serializers.CharField()
    subtotal_cents = serializers.IntegerField()
    tax_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()
    lines = OrderLineOut(many=True)
    updated_at = serializers.DateTimeField()


class SessionOrderView(KioskAPIView):
    @extend_schema(responses={200: OrderOut}, summary="The session's current order (empty before the first cart)")
    def get(self, request, public_id: str):
        session = session_selectors.session_for_kiosk(kiosk=request.auth, public_id=public_id)
        session.business = request.auth.business
        return Response(order_body(session, selectors.order_for_session(session)))
