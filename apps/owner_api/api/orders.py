"""Owner API orders: the list (orders:read), fulfilment moves (orders:write), refunds
(refunds:write). The list is /api/v1/orders' own view and serializer behind this surface's
authentication; the moves and refunds call the same services as the owner panel."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.inputs import validated
from apps.billing.models import Refund
from apps.billing.services import refunds
from apps.orders import fulfilment
from apps.orders import services as order_services
from apps.orders.api.integrations import IntegrationOrderListView, IntegrationOrderOut, with_integration_body
from apps.orders.models import Order
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, data_response, enveloped, request_actor
from apps.owner_api.scopes import Scope


@extend_schema_view(
    get=extend_schema(
        summary="The owner's orders, newest first (cursor pagination: follow `next`)",
        description="Needs `orders:read`. The same query, filters and order fields as GET /api/v1/orders.",
    )
)
class OwnerOrderListView(OwnerAPIView, IntegrationOrderListView):
    """GET is IntegrationOrderListView.get: it reads `request.user.owner_id`, which here is the
    API key's owner."""

    required_scopes = {"GET": Scope.ORDERS_READ}


class FulfilmentStatusIn(serializers.Serializer[None]):
    status = serializers.ChoiceField(choices=[str(status) for status in fulfilment.FULFILMENT_STATUSES])


class RefundIn(serializers.Serializer[None]):
    amount_cents = serializers.IntegerField(
        min_value=1, required=False, help_text="Default: everything not yet refunded (a full refund)."
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class RefundOut(serializers.Serializer[Refund]):
    id = serializers.CharField(source="refund_id", help_text="The processor's refund id.")
    order_id = serializers.IntegerField()
    amount_cents = serializers.IntegerField()
    reason = serializers.CharField()
    order_status = serializers.CharField(source="order.status", help_text="`refunded` once fully refunded.")
    created_at = serializers.DateTimeField()


def _order_response(order_id: int) -> Response:
    return data_response(IntegrationOrderOut(with_integration_body(Order.objects.filter(pk=order_id)).get()).data)


class OrderStatusView(OwnerAPIView):
    required_scopes = {"POST": Scope.ORDERS_WRITE}

    @extend_schema(
        request=FulfilmentStatusIn,
        responses={200: enveloped("OwnerOrder", IntegrationOrderOut())},
        summary="Move a fired order to preparing, ready or completed (emits order.status_changed)",
        description="From confirmed: preparing, ready or completed; from preparing: ready or completed; from "
        "ready: completed. Any other move is 409 INVALID_STATE.",
    )
    def post(self, request: OwnerApiRequest, order_id: int) -> Response:
        data = validated(FulfilmentStatusIn, request.data)
        order = order_services.order_set_fulfilment_status(
            order_id=order_id, status=data["status"], actor=request_actor(request)
        )
        return _order_response(order.pk)


class OrderRefundView(OwnerAPIView):
    required_scopes = {"POST": Scope.REFUNDS_WRITE}

    @extend_schema(
        request=RefundIn,
        responses={201: enveloped("OwnerRefund", RefundOut())},
        summary="Refund a paid order through the processor, in full or in part",
        description="A refund of the whole remaining amount marks the order `refunded`. "
        "An order that is not paid (or already fully refunded) is 409 REFUND_NOT_ALLOWED.",
    )
    def post(self, request: OwnerApiRequest, order_id: int) -> Response:
        data = validated(RefundIn, request.data)
        refund = refunds.refund_order(
            order_id=order_id,
            amount_cents=data.get("amount_cents"),
            reason=data["reason"],
            actor=request_actor(request),
        )
        return data_response(RefundOut(refund).data, status=201)
