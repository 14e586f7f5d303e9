"""Super-admin: webhook subscriptions (the signing secret is never shown), deliveries with their
attempt log, read-only."""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from apps.core.admin_bases import NoAddAdmin, ReadOnlyAdmin, ReadOnlyInline
from apps.webhooks import services
from apps.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookFailureAllowance, WebhookSubscription

ALLOWANCE_FIELDS = ("failures", "until")
ATTEMPT_FIELDS = ("attempted_at", "succeeded", "status_code", "duration_ms", "error", "response_excerpt")


class WebhookFailureAllowanceInline(ReadOnlyInline[WebhookFailureAllowance, WebhookSubscription]):
    """Failures the batches being sent may still add (they clear themselves)."""

    model = WebhookFailureAllowance
    fields = readonly_fields = ALLOWANCE_FIELDS


@admin.register(WebhookSubscription)
class WebhookSubscriptionAdmin(NoAddAdmin[WebhookSubscription]):
    # Never added here: created by owners, who alone see the secret once.
    list_display = ["id", "owner", "url", "active", "failure_count", "last_delivered_at", "last_failed_at"]
    list_filter = ["active", "owner"]
    search_fields = ["url", "owner__name"]
    list_select_related = ["owner"]
    exclude = ["encrypted_secret"]
    # The receiver URL is checked (https, no private targets) only by the owner's create call.
    readonly_fields = [
        "owner",
        "url",
        "events",
        "active",
        "failure_count",
        "last_delivered_at",
        "last_failed_at",
        "paused_at",
        "created_at",
    ]
    inlines = [WebhookFailureAllowanceInline]
    actions = ["reenable"]

    @admin.action(description="Re-enable the selected (paused) subscriptions")
    def reenable(self, request: HttpRequest, queryset: QuerySet[WebhookSubscription]) -> None:
        paused = list(queryset.filter(active=False))
        for subscription in paused:
            services.subscription_reenable(subscription=subscription)
        self.message_user(request, f"{len(paused)} subscription(s) re-enabled.")


class WebhookAttemptInline(ReadOnlyInline[WebhookAttempt, WebhookDelivery]):
    model = WebhookAttempt
    fields = readonly_fields = ATTEMPT_FIELDS


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin[WebhookDelivery]):
    list_display = ["id", "subscription", "event_name", "status", "attempts", "next_attempt_at", "delivered_at"]
    list_filter = ["status", "event__name", "subscription__owner"]
    search_fields = ["=id", "subscription__url", "event__name"]
    list_select_related = ["subscription", "event"]
    date_hierarchy = "created_at"
    inlines = [WebhookAttemptInline]

    @admin.display(description="event", ordering="event__name")
    def event_name(self, delivery: WebhookDelivery) -> str:
        return delivery.event.name


@admin.register(WebhookAttempt)
class WebhookAttemptAdmin(ReadOnlyAdmin[WebhookAttempt]):
    list_display = ["id", "delivery", "attempted_at", "succeeded", "status_code", "duration_ms", "error"]
    list_filter = ["succeeded", "status_code"]
    search_fields = ["=delivery__id", "error"]
    date_hierarchy = "attempted_at"
