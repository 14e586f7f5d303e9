"""Handle verified processor events, each exactly once (by event id) and never moving state
backwards when events arrive out of order (spec 6.3)."""

from datetime import UTC, datetime

from django.db import IntegrityError, transaction

from apps.billing import payments
from apps.billing.models import OwnerBilling, Payment, Plan, PlatformFee, ProcessorEvent
from apps.core.errors import DomainError


def _requirements_status(account: dict) -> str:
    requirements = account.get("requirements") or {}
    if requirements.get("disabled_reason"):
        return "restricted"
    if requirements.get("pending_verification"):
        return "under_review"
    if account.get("details_submitted") and account.get("charges_enabled"):
        return "complete"
    return "incomplete"


def _account_updated(obj: dict, created: datetime) -> str:
    billing = OwnerBilling.objects.select_for_update().filter(account_id=obj["id"]).first()
    if billing is None:
        return "unknown account"
    if billing.account_updated_at and billing.account_updated_at > created:
        return "ignored: older than the last update"
    billing.charges_enabled = bool(obj.get("charges_enabled"))
    billing.payouts_enabled = bool(obj.get("payouts_enabled"))
    billing.requirements_status = _requirements_status(obj)
    billing.account_updated_at = created
    billing.save()
    return f"account {billing.requirements_status}"


def _payment(obj: dict) -> Payment | None:
    return Payment.objects.select_for_update().filter(intent_id=obj["id"]).first()


def _intent_succeeded(obj: dict, created: datetime) -> str:
    payment = _payment(obj)
    return "unknown payment intent" if payment is None else payments.payment_succeeded(payment=payment)


def _intent_failed(obj: dict, created: datetime) -> str:
    payment = _payment(obj)
    if payment is None:
        return "unknown payment intent"
    error = obj.get("last_payment_error") or {}
    return payments.payment_failed(payment=payment, message=error.get("message") or "The card was declined.")


def _subscription_billing(customer_id: str, created: datetime) -> OwnerBilling | None:
    billing = OwnerBilling.objects.select_for_update().filter(customer_id=customer_id).first()
    if billing is None or (billing.subscription_updated_at and billing.subscription_updated_at > created):
        return None
    billing.subscription_updated_at = created
    return billing


def _invoice(obj: dict, created: datetime, *, paid: bool) -> str:
    billing = _subscription_billing(obj.get("customer", ""), created)
    if billing is None:
        return "ignored: unknown customer or stale"
    billing.dunning = not paid
    billing.subscription_status = "active" if paid else "past_due"
    billing.save()
    return "subscription current" if paid else "dunning"


def _plan_of(subscription: dict) -> str:
    for item in (subscription.get("items") or {}).get("data", []):
        lookup = ((item.get("price") or {}).get("lookup_key") or "").lower()
        if lookup in Plan.values:
            return lookup
    return (subscription.get("metadata") or {}).get("plan", Plan.PRO)


def _subscription_updated(obj: dict, created: datetime) -> str:
    billing = _subscription_billing(obj.get("customer", ""), created)
    if billing is None:
        return "ignored: unknown customer or stale"
    billing.subscription_id = obj.get("id", "")
    billing.subscription_status = obj.get("status", "")
    billing.plan = _plan_of(obj)
    billing.save()
    return f"plan {billing.plan}"


def _subscription_deleted(obj: dict, created: datetime) -> str:
    billing = _subscription_billing(obj.get("customer", ""), created)
    if billing is None:
        return "ignored: unknown customer or stale"
    billing.plan, billing.subscription_status, billing.dunning = Plan.FREE, "canceled", False
    billing.save()
    return "downgraded to free"


def _fee_created(obj: dict, created: datetime) -> str:
    PlatformFee.objects.get_or_create(
        fee_id=obj["id"],
        defaults={
            "account_id": obj.get("account") or "",
            "amount_cents": obj.get("amount", 0),
            "currency": (obj.get("currency") or "").upper(),
        },
    )
    return "fee recorded"


HANDLERS = {
    "account.updated": _account_updated,
    "payment_intent.succeeded": _intent_succeeded,
    "payment_intent.payment_failed": _intent_failed,
    "invoice.paid": lambda obj, created: _invoice(obj, created, paid=True),
    "invoice.payment_failed": lambda obj, created: _invoice(obj, created, paid=False),
    "customer.subscription.updated": _subscription_updated,
    "customer.subscription.deleted": _subscription_deleted,
    "application_fee.created": _fee_created,
}


def _apply(handler, obj: dict, created: datetime) -> str:
    """Run a handler in a savepoint: a refusal (e.g. a move the order cannot make) is recorded as
    the outcome, so the event is not redelivered forever."""
    if handler is None:
        return "ignored: unhandled type"
    try:
        with transaction.atomic():
            return handler(obj, created)
    except DomainError as exc:
        return f"ignored: {exc.message}"


def handle(event: dict, *, endpoint: str) -> str:
    """Apply one verified event. A redelivered event id is answered without effect."""
    created = datetime.fromtimestamp(int(event.get("created", 0)), tz=UTC)
    handler = HANDLERS.get(event["type"])
    try:
        with transaction.atomic():
            record = ProcessorEvent.objects.create(
                event_id=event["id"],
                type=event["type"],
                endpoint=endpoint,
                account_id=event.get("account") or "",
                created=created,
            )
            outcome = _apply(handler, event["data"]["object"], created)
            record.outcome = outcome[:200]
            record.save(update_fields=["outcome"])
    except IntegrityError:
        if ProcessorEvent.objects.filter(event_id=event["id"]).exists():
            return "duplicate"
        raise
    return outcome
