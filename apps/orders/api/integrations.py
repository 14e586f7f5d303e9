"""Token API: GET /api/v1/orders, the owner's orders, newest first, cursor-paginated."""

from typing import Any, NotRequired, TypedDict

from django.db.models import QuerySet
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import extend_schema_field, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import Cursor, CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.api.base import AgentRequest, TokenAPIView
from apps.api.operations import Answer, Data, operation
from apps.core.body_shapes import serializer_for
from apps.orders.bodies import ModifierBody, modifier_bodies, payment_status
from apps.orders.models import Order, OrderLine, OrderStatus


class OrdersPage(CursorPagination):
    ordering = ("-created_at", "-pk")
    page_size = 50
    page_size_query_param = "limit"
    max_page_size = 200

    def decode_cursor(self, request: Request) -> Cursor | None:
        """DRF answers a cursor it cannot decode with 404 and trusts the position inside one it
        can (a datetime string here), so an edited position failed in the query as a 500. All
        are the client's bad input: 422 with details.cursor."""
        if not request.query_params.get(self.cursor_query_param):
            return None  # absent or blank: the first page
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            cursor = None
            valid = False
        else:
            # DRF never issues an all-default cursor (its first page has no cursor at all), so
            # one means the value was not ours, e.g. characters base64 silently skips.
            valid = (
                cursor is not None
                and cursor != (0, False, None)
                and (cursor.position is None or _is_datetime(str(cursor.position)))
            )
        if not valid:
            raise ValidationError({"cursor": ["This cursor is invalid; start again without it or follow `next`."]})
        return cursor


def _is_datetime(value: str) -> bool:
    try:
        return parse_datetime(value) is not None
    except ValueError:  # well-formed but impossible, e.g. month 13
        return False


class OrderFilterIn(serializers.Serializer[None]):
    status = serializers.ChoiceField(choices=OrderStatus.values, required=False)
    business = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    created_after = serializers.DateTimeField(required=False, help_text="Inclusive lower bound (ISO 8601).")
    created_before = serializers.DateTimeField(required=False, help_text="Exclusive upper bound (ISO 8601).")
    limit = serializers.IntegerField(min_value=1, max_value=200, required=False, help_text="Page size (default 50).")
    cursor = serializers.CharField(required=False, max_length=500, help_text="Opaque; taken from `next`/`previous`.")

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        after, before = attrs.get("created_after"), attrs.get("created_before")
        if after is not None and before is not None and after >= before:
            raise ValidationError({"created_before": ["Must be later than created_after."]})
        return attrs


# An order line as the integration surfaces render it: the order line's fields, with integer
# ids (docs/decisions/payments.md "Ids"). A TypedDict cannot narrow its base's field types, hence a copy.
class IntegrationOrderLineBody(TypedDict):
    id: int
    menu_item_id: int | None
    name: str
    quantity: int
    unit_price_cents: int
    modifiers: list[ModifierBody]
    notes: NotRequired[str]


IntegrationOrderLineOut = serializer_for(IntegrationOrderLineBody, "IntegrationOrderLineOut")


def integration_line_body(line: OrderLine) -> IntegrationOrderLineBody:
    body: IntegrationOrderLineBody = {
        "id": line.pk,
        "menu_item_id": line.menu_item_id,
        "name": line.name,  # the catalog's words: customer_words is the kiosk's and the agent's
        "quantity": line.quantity,
        "unit_price_cents": line.unit_price_cents,
        "modifiers": modifier_bodies(line),
    }
    if line.notes:
        body["notes"] = line.notes
    return body


class IntegrationOrderOut(serializers.Serializer[Order]):
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

    def get_business(self, order: Order) -> dict[str, Any]:
        return {"id": order.business_id, "name": order.business.name}

    def get_session(self, order: Order) -> dict[str, Any]:
        session = order.session
        agent = session.agent
        return {
            "id": session.public_id,
            "status": session.status,
            "kiosk": {"id": session.kiosk_id, "name": session.kiosk.name},
            "agent": {"id": agent.pk, "name": agent.name} if agent else None,
        }

    def get_payment(self, order: Order) -> dict[str, Any]:
        return {"status": payment_status(order)}

    @extend_schema_field(IntegrationOrderLineOut(many=True))
    def get_lines(self, order: Order) -> list[IntegrationOrderLineBody]:
        return [integration_line_body(line) for line in order.lines.all()]


def with_integration_body(orders: QuerySet[Order]) -> QuerySet[Order]:
    """`orders` fetched with what IntegrationOrderOut reads of each (business, kiosk, agent, lines)."""
    return orders.select_related("business", "session__kiosk", "session__agent").prefetch_related("lines")


ORDER_PAGE = inline_serializer(
    "IntegrationOrderPage",
    {
        "next": serializers.URLField(allow_null=True, help_text="The next (older) page, or null."),
        "previous": serializers.URLField(allow_null=True, help_text="The previous (newer) page, or null."),
        "results": IntegrationOrderOut(many=True),
    },
)


class IntegrationOrderListView(TokenAPIView):
    @operation(Answer(ORDER_PAGE), query=OrderFilterIn)
    def get(self, request: AgentRequest, query: Data) -> Response:
        """The owner's orders, newest first (cursor pagination: follow `next`)"""
        owner_id = request.user.owner_id  # not None: HasOwnerToken refuses an ownerless agent
        orders = with_integration_body(Order.objects.filter(owner_id=owner_id))  # type: ignore[misc]
        if "status" in query:
            orders = orders.filter(status=query["status"])
        if "business" in query:
            orders = orders.filter(business_id=query["business"])
        if "created_after" in query:
            orders = orders.filter(created_at__gte=query["created_after"])
        if "created_before" in query:
            orders = orders.filter(created_at__lt=query["created_before"])
        paginator = OrdersPage()
        page = paginator.paginate_queryset(orders, request, view=self)
        body = IntegrationOrderOut(page, many=True).data  # type: ignore[arg-type]  # the stubs take one instance
        return paginator.get_paginated_response(body)
