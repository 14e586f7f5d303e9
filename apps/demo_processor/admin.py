"""Super-admin: the demo processor's records (local and test runs only), read-only like the real
processor's: they change only through its API, as the processor's would."""

from django.contrib import admin

from apps.core.admin_bases import ReadOnlyAdmin
from apps.demo_processor.models import (
    DemoAccount,
    DemoIdempotentAnswer,
    DemoLocation,
    DemoPaymentIntent,
    DemoReader,
    DemoRefund,
)


@admin.register(DemoAccount)
class DemoAccountAdmin(ReadOnlyAdmin[DemoAccount]):
    list_display = ["account_id", "charges_enabled", "created_at"]
    search_fields = ["account_id"]


@admin.register(DemoPaymentIntent)
class DemoPaymentIntentAdmin(ReadOnlyAdmin[DemoPaymentIntent]):
    list_display = ["intent_id", "account_id", "amount", "currency", "status", "created_at"]
    list_filter = ["status"]
    search_fields = ["intent_id", "account_id"]
    exclude = ["client_secret"]


@admin.register(DemoRefund)
class DemoRefundAdmin(ReadOnlyAdmin[DemoRefund]):
    list_display = ["refund_id", "intent", "amount", "reason", "created_at"]
    search_fields = ["refund_id"]


@admin.register(DemoIdempotentAnswer)
class DemoIdempotentAnswerAdmin(ReadOnlyAdmin[DemoIdempotentAnswer]):
    list_display = ["key", "account_id", "path", "status", "created_at"]
    search_fields = ["key"]


@admin.register(DemoLocation)
class DemoLocationAdmin(ReadOnlyAdmin[DemoLocation]):
    list_display = ["location_id", "account_id", "display_name", "created_at"]
    search_fields = ["location_id", "account_id"]


@admin.register(DemoReader)
class DemoReaderAdmin(ReadOnlyAdmin[DemoReader]):
    list_display = ["reader_id", "account_id", "label", "device_type", "status"]
    list_filter = ["status", "device_type"]
    search_fields = ["reader_id", "label"]
