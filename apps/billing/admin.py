"""Super-admin: the owners (tenants: suspend, change plan) with their billing state and
businesses; billing state, payments, refunds, processor events (read-only, the audit trail).
Payments and refunds move only through the processor and the services, never by hand here. The
owners' page is here, not in accounts' admin, because it shows and moves the plan (billing sits
above accounts); suspension and the plan change only through the actions, which call the services
one owner at a time (events, webhooks)."""

from typing import TYPE_CHECKING, Any, TypedDict

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.forms import BaseModelForm
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from apps.accounts import services as account_services
from apps.accounts.models import Business, Owner
from apps.billing.models import (
    CardReader,
    OwnerBilling,
    Payment,
    Plan,
    PlatformFee,
    ProcessorCall,
    ProcessorEvent,
    ReaderLocation,
    ReaderRefusal,
    Refund,
)
from apps.billing.plans import plan_set
from apps.core.admin_actions import each_through_service
from apps.core.admin_bases import ReadOnlyAdmin

if TYPE_CHECKING:  # a generic alias Python 3.11 cannot build at run time
    from django_stubs_ext import WithAnnotations


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


class BusinessInline(admin.TabularInline[Business, Owner]):
    model = Business
    extra = 0
    fields = ["name", "currency", "tax_rate_bps", "session_recording"]
    show_change_link = True


class OwnerBillingInline(admin.StackedInline[OwnerBilling, Owner]):
    """Shown, not edited: the plan moves with the owner actions (plan_set), the rest is the
    processor's."""

    model = OwnerBilling
    can_delete = False
    extra = 0
    fields = readonly_fields = (
        "plan",
        "subscription_status",
        "dunning",
        "account_id",
        "charges_enabled",
        "payouts_enabled",
        "requirements_status",
        "customer_id",
        "subscription_id",
    )

    def has_add_permission(self, request: HttpRequest, obj: Owner | None = None) -> bool:
        return False  # made by onboarding or a plan move (plan_set)


def _set_plan(modeladmin: "OwnerAdmin", request: HttpRequest, queryset: QuerySet[Owner], plan: str) -> None:
    told = f"{{count}} owner(s) now on the {plan} plan."
    each_through_service(modeladmin, request, queryset, lambda owner: plan_set(owner=owner, plan=plan), told)


def _set_suspended(modeladmin: "OwnerAdmin", request: HttpRequest, queryset: QuerySet[Owner], suspended: bool) -> None:
    changed = sum(account_services.owner_set_suspended(owner=owner, suspended=suspended) for owner in queryset)
    verb = "suspended" if suspended else "reinstated"
    modeladmin.message_user(request, f"{changed} owner(s) {verb}.", messages.SUCCESS)


class _OwnerCounts(TypedDict):
    """What OwnerAdmin.get_queryset annotates on each owner."""

    business_count: int
    user_count: int


@admin.register(Owner)
class OwnerAdmin(admin.ModelAdmin[Owner]):
    list_display = ["id", "name", "plan", "suspended", "business_count", "user_count", "created_at"]
    list_filter = ["suspended", "billing__plan", "billing__dunning"]
    search_fields = ["name", "businesses__name", "users__email"]
    readonly_fields = ["suspended", "created_at"]
    inlines = [OwnerBillingInline, BusinessInline]
    actions = ["suspend", "reactivate", "move_to_free_plan", "move_to_pro_plan"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Owner]:
        return (
            super()
            .get_queryset(request)
            .select_related("billing")
            .annotate(business_count=Count("businesses", distinct=True), user_count=Count("users", distinct=True))
        )

    def save_formset(
        self,
        request: HttpRequest,
        form: BaseModelForm[Owner],
        formset: BaseInlineFormSet[Any, Owner, Any],
        change: bool,
    ) -> None:
        super().save_formset(request, form, formset, change)
        if formset.model is Business:  # the inline's edits reach the businesses' kiosks at once
            for business, _fields in formset.changed_objects:
                account_services.business_saved_elsewhere(business)

    @admin.display(description="plan", ordering="billing__plan")
    def plan(self, owner: Owner) -> str:
        billing = getattr(owner, "billing", None)
        return billing.plan if billing else Plan.FREE

    @admin.display(description="businesses", ordering="business_count")
    def business_count(self, owner: "WithAnnotations[Owner, _OwnerCounts]") -> int:
        return owner.business_count

    @admin.display(description="users", ordering="user_count")
    def user_count(self, owner: "WithAnnotations[Owner, _OwnerCounts]") -> int:
        return owner.user_count

    @admin.action(description="Suspend the selected owners (no new sessions, pairing, token or owner API)")
    def suspend(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_suspended(self, request, queryset, True)

    @admin.action(description="Reinstate the selected owners")
    def reactivate(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_suspended(self, request, queryset, False)

    @admin.action(description="Move to the free plan")
    def move_to_free_plan(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_plan(self, request, queryset, Plan.FREE)

    @admin.action(description="Move to the pro plan")
    def move_to_pro_plan(self, request: HttpRequest, queryset: QuerySet[Owner]) -> None:
        _set_plan(self, request, queryset, Plan.PRO)


@admin.register(ReaderLocation)
class ReaderLocationAdmin(ReadOnlyAdmin[ReaderLocation]):
    """The processor's location for a business's readers, made when its first reader is registered."""

    list_display = ["business", "location_id", "account_id", "created_at"]
    search_fields = ["location_id", "business__name"]
    list_select_related = ["business"]


@admin.register(CardReader)
class CardReaderAdmin(ReadOnlyAdmin[CardReader]):
    """A kiosk's reader: registered, replaced and removed by its owner (panel, owner API); its state
    is the processor's report."""

    list_display = ["label", "kiosk", "reader_id", "status", "action_status", "reported_at"]
    list_filter = ["status", "action_status"]
    search_fields = ["label", "reader_id", "kiosk__name"]
    list_select_related = ["kiosk"]


@admin.register(ReaderRefusal)
class ReaderRefusalAdmin(ReadOnlyAdmin[ReaderRefusal]):
    """A reader that refused an agent's send to payment, while the kiosk says so; it clears itself
    when a send goes through or the session moves on."""

    list_display = ["session", "reason", "reader", "refused_at"]
    list_filter = ["reason"]
    search_fields = ["session__public_id", "reader__reader_id"]
    list_select_related = ["session", "reader"]
