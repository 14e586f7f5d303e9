"""Token API: the owner's webhook subscriptions."""

from django.db.models import QuerySet
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from apps.accounts.api.base import AgentRequest, TokenAPIView
from apps.accounts.models import Owner
from apps.api.operations import NO_CONTENT, Answer, Data, operation
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
    @operation(Answer(SubscriptionOut(many=True), envelope="WebhookList"))
    def get(self, request: AgentRequest) -> QuerySet[WebhookSubscription]:
        """All webhook subscriptions of the token's owner"""
        return WebhookSubscription.objects.filter(owner=_owner(request)).order_by("pk")

    @operation(
        Answer(
            inline_serializer("WebhookCreated", {"data": SubscriptionOut(), "secret": serializers.CharField()}), 201
        ),
        body=SubscriptionIn,
    )
    def post(self, request: AgentRequest, data: Data) -> dict[str, object]:
        """Subscribe a receiver; the signing secret is returned only here"""
        subscription, secret = services.subscription_create(
            owner=_owner(request), url=data["url"], events=data["events"]
        )
        return {"data": subscription, "secret": secret}


class WebhookDetailView(TokenAPIView):
    @operation(NO_CONTENT)
    def delete(self, request: AgentRequest, subscription_id: int) -> None:
        """Delete a subscription permanently"""
        subscription = WebhookSubscription.objects.filter(pk=subscription_id, owner=_owner(request)).first()
        if subscription is None:
            raise DomainError(ErrorCode.NOT_FOUND, "No such webhook subscription.")
        services.subscription_delete(subscription=subscription)
