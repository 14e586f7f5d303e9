"""Token API: the owner's webhook subscriptions."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import TokenAPIView
from apps.api.inputs import validated
from apps.core.errors import DomainError, ErrorCode
from apps.core.events import EVENT_NAMES
from apps.webhooks import services
from apps.webhooks.models import WebhookSubscription


class SubscriptionOut(serializers.ModelSerializer):
    class Meta:
        model = WebhookSubscription
        fields = ["id", "url", "events", "active", "failure_count", "last_delivered_at", "last_failed_at", "created_at"]


class SubscriptionIn(serializers.Serializer):
    url = serializers.URLField(max_length=2000)
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_NAMES), allow_empty=False, max_length=20)


class WebhookListView(TokenAPIView):
    @extend_schema(
        responses={200: inline_serializer("WebhookList", {"data": SubscriptionOut(many=True)})},
        summary="All webhook subscriptions of the token's owner",
    )
    def get(self, request):
        subscriptions = WebhookSubscription.objects.filter(owner_id=request.user.owner_id).order_by("pk")
        return Response({"data": SubscriptionOut(subscriptions, many=True).data})

    @extend_schema(
        request=SubscriptionIn,
        responses={
            201: inline_serializer("WebhookCreated", {"data": SubscriptionOut(), "secret": serializers.CharField()})
        },
        summary="Subscribe a receiver; the signing secret is returned only here",
    )
    def post(self, request):
        data = validated(SubscriptionIn, request.data)
        subscription, secret = services.subscription_create(
            owner=request.user.owner, url=data["url"], events=data["events"]
        )
        return Response({"data": SubscriptionOut(subscription).data, "secret": secret}, status=201)


class WebhookDetailView(TokenAPIView):
    @extend_schema(responses={204: None}, summary="Delete a subscription permanently")
    def delete(self, request, subscription_id: int):
        subscription = WebhookSubscription.objects.filter(pk=subscription_id, owner_id=request.user.owner_id).first()
        if subscription is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such webhook subscription.")
        services.subscription_delete(subscription=subscription)
        return Response(status=204)
