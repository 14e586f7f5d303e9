"""Token API: the owner's webhook subscriptions."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.response import Response

from apps.accounts.api.base import AgentRequest, TokenAPIView
from apps.accounts.models import Owner
from apps.api.inputs import validated
from apps.core.errors import DomainError, ErrorCode
from apps.core.events import EVENT_NAMES
from apps.webhooks import services
from apps.webhooks.models import WebhookSubscription


class SubscriptionOut(serializers.ModelSerializer[WebhookSubscription]):
    class Meta:
        model = WebhookSubscription
        fields = ["id", "url", "events", "active", "failure_count", "last_delivered_at", "last_failed_at", "created_at"]


class SubscriptionIn(serializers.Serializer[None]):
    url = serializers.URLField(max_length=2000)
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_NAMES), allow_empty=False, max_length=20)


def _owner(request: AgentRequest) -> Owner:
    owner = request.user.owner
    if owner is None:  # HasOwnerToken has refused an ownerless agent already
        raise DomainError(ErrorCode.FORBIDDEN, "Token not associated with an owner")
    return owner


class WebhookListView(TokenAPIView):
    @extend_schema(
        responses={200: inline_serializer("WebhookList", {"data": SubscriptionOut(many=True)})},
        summary="All webhook subscriptions of the token's owner",
    )
    def get(self, request: AgentRequest) -> Response:
        subscriptions = WebhookSubscription.objects.filter(owner=_owner(request)).order_by("pk")
        return Response({"data": SubscriptionOut(subscriptions, many=True).data})

    @extend_schema(
        request=SubscriptionIn,
        responses={
            201: inline_serializer("WebhookCreated", {"data": SubscriptionOut(), "secret": serializers.CharField()})
        },
        summary="Subscribe a receiver; the signing secret is returned only here",
    )
    def post(self, request: AgentRequest) -> Response:
        data = validated(SubscriptionIn, request.data)
        subscription, secret = services.subscription_create(
            owner=_owner(request), url=data["url"], events=data["events"]
        )
        return Response({"data": SubscriptionOut(subscription).data, "secret": secret}, status=201)


class WebhookDetailView(TokenAPIView):
    @extend_schema(responses={204: None}, summary="Delete a subscription permanently")
    def delete(self, request: AgentRequest, subscription_id: int) -> Response:
        subscription = WebhookSubscription.objects.filter(pk=subscription_id, owner=_owner(request)).first()
        if subscription is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such webhook subscription.")
        services.subscription_delete(subscription=subscription)
        return Response(status=204)
