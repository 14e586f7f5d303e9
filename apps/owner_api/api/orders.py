"""Owner API orders: the list (orders:read), fulfilment moves (orders:write), refunds
(refunds:write). The list is /api/v1/orders' own view and serializer behind this surface's
authentication; the moves and refunds call the same services as the owner panel."""

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from apps.api.operations import Data
from apps.billing.models import Refund
from apps.billing.services import refunds
from apps.orders import fulfilment
from apps.orders import services as order_services
from apps.orders.api.integrations import IntegrationOrderListView, IntegrationOrderOut, with_integration_body
from apps.orders.models import Order
from apps.owner_api.api.base import OwnerApiRequest, OwnerAPIView, enveloped, owner_operation, request_actor
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


class OrderStatusView(OwnerAPIView):
    @owner_operation(Scope.ORDERS_WRITE, enveloped("OwnerOrder", IntegrationOrderOut()), body=FulfilmentStatusIn)
    def post(self, request: OwnerApiRequest, data: Data, order_id: int) -> Order:
        """Move a fired order to preparing, ready or completed (emits order.status_changed)

        From confirmed: preparing, ready or completed; from preparing: ready or completed; from
        ready: completed. Any other move is 409 INVALID_STATE."""
        order = order_services.order_set_fulfilment_status(
            order_id=order_id, status=data["status"], actor=request_actor(request)
        )
        return with_integration_body(Order.objects.filter(pk=order.pk)).get()


class OrderRefundView(OwnerAPIView):
    @owner_operation(Scope.REFUNDS_WRITE, enveloped("OwnerRefund", RefundOut(), 201), body=RefundIn)
    def post(self, request: OwnerApiRequest, data: Data, order_id: int) -> Refund:
        """Refund a paid order through the processor, in full or in part

        A refund of the whole remaining amount marks the order `refunded`. An order that is not paid
        (or already fully refunded) is 409 REFUND_NOT_ALLOWED."""
        return refunds.refund_order(
            order_id=order_id,
            amount_cents=data.get("amount_cents"),
            reason=data["reason"],
            actor=request_actor(request),
        )
