"""Agent API: the menu of the business the agent is serving right now."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.api.views import AgentAPIView
from apps.core.body_fields import OptionalTextField
from apps.menu import selectors as menu_selectors
from apps.sessions import selectors as session_selectors


class OptionOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    price_cents = serializers.IntegerField()


class GroupOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    required = serializers.BooleanField()
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    options = OptionOut(many=True)


class ItemOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField()
    price_cents = serializers.IntegerField()
    photo_url = OptionalTextField()
    sold_out = serializers.BooleanField()
    modifier_groups = GroupOut(many=True)


class CategoryOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    sort_order = serializers.IntegerField()
    menu_items = ItemOut(many=True, source="items.all")


class MenuView(AgentAPIView):
    @extend_schema(
        responses={200: inline_serializer("MenuOut", {"categories": CategoryOut(many=True)})},
        summary="The active menu of the business of the agent's live session",
    )
    def get(self, request):
        session = session_selectors.current_session_for_agent(request.user)
        categories = menu_selectors.active_catalog_categories(business_id=session.business_id)
        return Response({"categories": CategoryOut(categories, many=True).data})
