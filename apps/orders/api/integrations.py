"""Token API: GET /api/v1/orders, the owner's orders, newest first, cursor-paginated."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.pagination import CursorPagination

from apps.api.inputs import validated
from apps.api.views import TokenAPIView
from apps.orders.api.kiosk import OrderLineOut
from apps.orders.models import Order, OrderStatus
from apps.orders.representation import line_body, payment_status


class OrdersPage(CursorPagination):
    ordering = ("-created_at", "-pk")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200


class OrderFilterIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=OrderStatus.values, required=False)
    business = serializers.IntegerField(min_value=1, required=False)
    created_after = serializers.DateTimeField(required=False)
    created_before = serializers.DateTimeField(required=False)
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False)
    cursor = serializers.CharField(required=False, max_length=500)


class IntegrationOrderOut(serializers.Serializer):
    id = serializers.IntegerField()
    order_number = serializers.CharField(source="number")
    status = serializers.CharField()
    business = serializers.SerializerMethodField()
    session = serializers.SerializerMethodField()
    currency = serializers.CharField()
    subtotal_cents = serializers.IntegerField()
    tax_cents = serializers.IntegerField()
    total_cents = serializers.IntegerField()
    payment = serializers.SerializerMethodField()
    lines = serializers.SerializerMethodField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()

    def get_business(self, order: Order) -> dict:
        return {"id": order.business_id, "name": order.business.name}

    def get_session(self, order: Order) -> dict:
        session = order.session
        agent = session.agent
        return {
            "id": session.public_id,
            "status": session.status,
            "kiosk": {"id": session.kiosk_id, "name": session.kiosk.name},
            "agent": {"id": agent.pk, "name": agent.name} if agent else None,
        }

    def get_payment(self, order: Order) -> dict:
        return {"status": payment_status(order)}

    @extend_schema(responses=OrderLineOut(many=True))
    def get_lines(self, order: Order) -> list:
        return [line_body(line) for line in order.lines.all()]


class IntegrationOrderListView(TokenAPIView):
    @extend_schema(
        parameters=[OrderFilterIn],
        responses={200: IntegrationOrderOut(many=True)},
        summary="The owner's orders, newest first (cursor pagination: follow `next`)",
    )
    def get(self, request):
        filters = validated(OrderFilterIn, request.query_params)
        orders = Order.objects.filter(owner_id=request.user.owner_id).select_related(
            "business", "session__kiosk", "session__agent"
        )
        if "status" in filters:
            orders = orders.filter(status=filters["status"])
        if "business" in filters:
            orders = orders.filter(business_id=filters["business"])
        if "created_after" in filters:
            orders = orders.filter(created_at__gte=filters["created_after"])
        if "created_before" in filters:
            orders = orders.filter(created_at__lt=filters["created_before"])
        paginator = OrdersPage()
        page = paginator.paginate_queryset(orders.prefetch_related("lines"), request, view=self)
        return paginator.get_paginated_response(IntegrationOrderOut(page, many=True).data)
