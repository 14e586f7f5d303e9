"""Super-admin: billing state, payments, refunds, processor events (read-only, the audit trail).
Payments and refunds move only through the processor and the services, never by hand here."""

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from apps.billing.models import OwnerBilling, Payment, PlatformFee, ProcessorCall, ProcessorEvent, Refund

M = TypeVar("M", bound=Model)


class ReadOnlyAdmin(admin.ModelAdmin[M]):
    def has_add_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: M | None = None) -> bool:
        return False


@admin.register(OwnerBilling)
class OwnerBillingAdmin(admin.ModelAdmin[OwnerBilling]):
    """Rows are made by onboarding and plan changes (the owner actions), not added by hand."""

    list_display = ["owner", "plan", "subscription_status", "dunning", "account_id", "requirements_status"]
    list_filter = ["plan", "dunning", "charges_enabled", "requirements_status", "subscription_status"]
    search_fields = ["owner__name", "account_id", "customer_id"]
    list_select_related = ["owner"]
    # Everything but the plan is the processor's (its events write it); the plan moves with the
    # owner actions (billing.plans.plan_set).
    readonly_fields = [
        "owner",
        "plan",
        "dunning",
        "account_id",
        "charges_enabled",
        "payouts_enabled",
        "requirements_status",
        "account_updated_at",
        "customer_id",
        "subscription_id",
        "subscription_status",
        "subscription_updated_at",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Payment)
class PaymentAdmin(ReadOnlyAdmin[Payment]):
    list_display = ["intent_id", "order", "amount_cents", "currency", "status", "created_at"]
    list_filter = ["status", "currency"]
    search_fields = ["intent_id", "order__number"]
    list_select_related = ["order"]
    exclude = ["encrypted_client_secret"]


@admin.register(Refund)
class RefundAdmin(ReadOnlyAdmin[Refund]):
    list_display = ["refund_id", "order", "amount_cents", "reason", "created_by", "created_at"]
    search_fields = ["refund_id", "order__number"]
    list_select_related = ["order", "created_by"]


@admin.register(ProcessorEvent)
class ProcessorEventAdmin(ReadOnlyAdmin[ProcessorEvent]):
    list_display = ["event_id", "type", "endpoint", "account_id", "created", "received_at", "outcome"]
    list_filter = ["type", "endpoint"]
    search_fields = ["event_id", "account_id", "outcome"]
    date_hierarchy = "received_at"


@admin.register(PlatformFee)
class PlatformFeeAdmin(ReadOnlyAdmin[PlatformFee]):
    list_display = ["fee_id", "account_id", "amount_cents", "currency", "created_at"]
    search_fields = ["fee_id", "account_id"]


@admin.register(ProcessorCall)
class ProcessorCallAdmin(ReadOnlyAdmin[ProcessorCall]):
    """Processor calls in flight (a reservation per order); they clear themselves."""

    list_display = ["order", "action", "idempotency_key", "started_at", "expires_at"]
    search_fields = ["idempotency_key", "order__number"]
    list_select_related = ["order"]
