from django.contrib import admin

from apps.billing.models import OwnerBilling, Payment, PlatformFee, ProcessorEvent, Refund


@admin.register(OwnerBilling)
class OwnerBillingAdmin(admin.ModelAdmin):
    list_display = ["owner", "plan", "subscription_status", "dunning", "account_id", "charges_enabled"]
    list_filter = ["plan", "dunning", "charges_enabled", "requirements_status"]
    search_fields = ["owner__name", "account_id", "customer_id"]


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = ["intent_id", "order", "amount_cents", "currency", "status", "created_at"]
    list_filter = ["status", "currency"]
    search_fields = ["intent_id", "order__number"]
    readonly_fields = [f.name for f in Payment._meta.fields if f.name != "id"]
    exclude = ["client_secret"]


@admin.register(Refund)
class RefundAdmin(admin.ModelAdmin):
    list_display = ["refund_id", "order", "amount_cents", "created_by", "created_at"]
    search_fields = ["refund_id", "order__number"]


@admin.register(ProcessorEvent)
class ProcessorEventAdmin(admin.ModelAdmin):
    list_display = ["event_id", "type", "endpoint", "account_id", "created", "outcome"]
    list_filter = ["type", "endpoint"]
    search_fields = ["event_id", "account_id"]
    readonly_fields = ["event_id", "type", "endpoint", "account_id", "created", "received_at", "outcome"]


@admin.register(PlatformFee)
class PlatformFeeAdmin(admin.ModelAdmin):
    list_display = ["fee_id", "account_id", "amount_cents", "currency", "created_at"]
