"""Agent API: POST /api/orders replaces the session's whole cart."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentAPIView, AgentRequest
from apps.api.inputs import validated
from apps.orders import services
from apps.orders.bodies import OrderOut, order_body


class OrderLineIn(serializers.Serializer[None]):
    menu_item_id = serializers.CharField(max_length=20)
    quantity = serializers.IntegerField(min_value=1, max_value=99)
    modifier_option_ids = serializers.ListField(
        child=serializers.CharField(max_length=20), max_length=50, required=False, default=list
    )
    notes = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class OrderIn(serializers.Serializer[None]):
    session_id = serializers.CharField(max_length=40)
    # What OrderLineIn(many=True, ...) builds, spelled out: the stubs type `many` only on the base.
    lines: serializers.ListSerializer[None] = serializers.ListSerializer(
        child=OrderLineIn(), max_length=100, allow_empty=True
    )


class OrdersView(AgentAPIView):
    @extend_schema(request=OrderIn, responses={200: OrderOut}, summary="Replace the session's whole cart")
    def post(self, request: AgentRequest) -> Response:
        data = validated(OrderIn, request.data)
        session, order = services.cart_replace(
            agent=request.user, session_public_id=data["session_id"], lines=data["lines"]
        )
        return Response(order_body(session, order))
