"""Handle verified processor events, each exactly once (by event id) and never moving state
backwards when events arrive out of order (spec 6.3). A signed `payment_intent.succeeded` still
confirms nothing until it matches the payment and the processor itself confirms the intent succeeded
(`_succeeded_refusal`); a `payment_intent.payment_failed` fails a payment only when it matches it or
the processor's own record says the intent failed (`_failed_refusal`)."""

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.db import IntegrityError, transaction

from apps.billing import processor, terminal
from apps.billing.models import (
    CardReader,
    OwnerBilling,
    Payment,
    PaymentMethod,
    PaymentStatus,
    Plan,
    PlatformFee,
    ProcessorEvent,
)
from apps.billing.services import intent_check, payments, readers
from apps.core.errors import DomainError, ErrorCode

# A JSON object as the processor sent it (its event, or the event's `data.object`): its fields'
# types are what validate_event checked (OBJECT_FIELDS), not known before.
ProcessorObject = dict[str, Any]
# A handler applies one event type's `data.object`, created at the given time; returns the outcome.
Handler = Callable[[ProcessorObject, datetime], str]


def _requirements_status(account: ProcessorObject) -> str:
    requirements = account.get("requirements") or {}
    if requirements.get("disabled_reason"):
        return "restricted"
    if requirements.get("pending_verification"):
        return "under_review"
    if account.get("details_submitted") and account.get("charges_enabled"):
        return "complete"
    return "incomplete"


def _account_updated(obj: ProcessorObject, created: datetime) -> str:
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


def _payment(obj: ProcessorObject) -> Payment | None:
    return Payment.objects.select_for_update().filter(intent_id=obj["id"]).first()


# Where the checks leave what the processor's own record says for the handler: the card that paid
# (the event's intent carries only the charge's id) and the error a card failed with. Keys no
# processor object has.
CHECKED_CARD = "_checked_card"
CHECKED_ERROR = "_checked_error"


def _intent_succeeded(obj: ProcessorObject, created: datetime) -> str:
    payment = _payment(obj)
    if payment is None:
        return "unknown payment intent"
    return payments.payment_succeeded(payment=payment, card=obj.get(CHECKED_CARD))


def _intent_failed(obj: ProcessorObject, created: datetime) -> str:
    payment = _payment(obj)
    if payment is None:
        return "unknown payment intent"
    error = obj.get(CHECKED_ERROR) or obj.get("last_payment_error") or {}
    code = error.get("decline_code") or error.get("code") or ""
    message = error.get("message") or "The card was declined."
    return payments.payment_failed(payment=payment, message=message, code=code)


def _reader_action(obj: ProcessorObject, created: datetime) -> str:
    """terminal.reader.action_succeeded / _failed: the reader's state is recorded (an older
    report never overwrites a newer one). The payment itself moves only on its own
    payment_intent.* event (or the sweep), through the one confirm path; a failed payment action
    puts the same intent back to the reader for another card."""
    state = terminal.reader_of(obj)
    reader = CardReader.objects.select_for_update().filter(reader_id=state["id"]).first()
    if reader is None:
        return "unknown reader"
    # Events carry whole seconds: a report made within the event's own second is not newer.
    if reader.reported_at and reader.reported_at.replace(microsecond=0) > created:
        return "ignored: older than the last report"
    action = state["action"]
    # Every hand to the reader is recorded as it is made, so the outcome of another intent than
    # the one recorded as in progress is older than that hand (the earlier payment's event came
    # late, within the same second): recording it would hide the payment the reader now holds.
    if (
        action is not None
        and reader.action_status == "in_progress"
        and action["payment_intent"] != reader.action_intent_id
    ):
        return "ignored: about an earlier payment"
    readers.record(reader, state)
    if action is None or action["type"] != "process_payment_intent":
        return f"reader {state['status']}"
    if action["status"] == "failed":
        payment = Payment.objects.filter(intent_id=action["payment_intent"], method=PaymentMethod.CARD_PRESENT).first()
        if payment is not None:
            payments.reader_take_again_on_commit(payment)
    return f"reader action {action['status']}"


def _subscription_billing(customer_id: str, created: datetime) -> OwnerBilling | None:
    billing = OwnerBilling.objects.select_for_update().filter(customer_id=customer_id).first()
    if billing is None or (billing.subscription_updated_at and billing.subscription_updated_at > created):
        return None
    billing.subscription_updated_at = created
    return billing


def _invoice(obj: ProcessorObject, created: datetime, *, paid: bool) -> str:
    billing = _subscription_billing(obj.get("customer", ""), created)
    if billing is None:
        return "ignored: unknown customer or stale"
    billing.dunning = not paid
    billing.subscription_status = "active" if paid else "past_due"
    billing.save()
    return "subscription current" if paid else "dunning"


def _plan_of(subscription: ProcessorObject) -> str:
    for item in (subscription.get("items") or {}).get("data", []):
        lookup = ((item.get("price") or {}).get("lookup_key") or "").lower()
        if lookup in Plan.values:
            return lookup
    plan: str = (subscription.get("metadata") or {}).get("plan", Plan.PRO)  # a string: OBJECT_FIELDS
    return plan


def _subscription_updated(obj: ProcessorObject, created: datetime) -> str:
    billing = _subscription_billing(obj.get("customer", ""), created)
    if billing is None:
        return "ignored: unknown customer or stale"
    billing.subscription_id = obj.get("id", "")
    billing.subscription_status = obj.get("status", "")
    billing.plan = _plan_of(obj)
    billing.save()
    return f"plan {billing.plan}"


def _subscription_deleted(obj: ProcessorObject, created: datetime) -> str:
    billing = _subscription_billing(obj.get("customer", ""), created)
    if billing is None:
        return "ignored: unknown customer or stale"
    billing.plan, billing.subscription_status, billing.dunning = Plan.FREE, "canceled", False
    billing.save()
    return "downgraded to free"


def _fee_created(obj: ProcessorObject, created: datetime) -> str:
    PlatformFee.objects.get_or_create(
        fee_id=obj["id"],
        defaults={
            "account_id": obj.get("account") or "",
            "amount_cents": obj.get("amount", 0),
            "currency": (obj.get("currency") or "").upper(),
        },
    )
    return "fee recorded"


HANDLERS: dict[str, Handler] = {
    "account.updated": _account_updated,
    "payment_intent.succeeded": _intent_succeeded,
    "payment_intent.payment_failed": _intent_failed,
    "invoice.paid": lambda obj, created: _invoice(obj, created, paid=True),
    "invoice.payment_failed": lambda obj, created: _invoice(obj, created, paid=False),
    "customer.subscription.updated": _subscription_updated,
    "customer.subscription.deleted": _subscription_deleted,
    "application_fee.created": _fee_created,
    "terminal.reader.action_succeeded": _reader_action,
    "terminal.reader.action_failed": _reader_action,
}


class MalformedEvent(ValueError):
    """A signed body that is not an event we can handle: answered 400, nothing recorded."""


_NONE = type(None)
_LATEST_CREATED = 253_402_300_799  # 9999-12-31T23:59:59Z, the last second a datetime holds
_INT_COLUMN = 2**31  # integer columns are 32-bit

_READER_FIELDS: dict[str, tuple[tuple[type, ...], int | None]] = {
    "status": ((str, _NONE), 10),
    "label": ((str, _NONE), 100),
    "action": ((dict, _NONE), None),
    "action.type": ((str, _NONE), 40),
    "action.status": ((str, _NONE), 20),
    "action.failure_code": ((str, _NONE), 60),
    "action.failure_message": ((str, _NONE), 300),
    "action.process_payment_intent": ((dict, _NONE), None),
    "action.process_payment_intent.payment_intent": ((str, dict, _NONE), None),
}

# What each handler reads from `data.object`, with the types (and longest string) it can take;
# "[]" steps into each element of a list. A field that is absent is not checked.
OBJECT_FIELDS: dict[str, dict[str, tuple[tuple[type, ...], int | None]]] = {
    "account.updated": {"requirements": ((dict, _NONE), None)},
    "payment_intent.succeeded": {"amount": ((int, _NONE), None), "currency": ((str, _NONE), 3)},
    "payment_intent.payment_failed": {
        "last_payment_error": ((dict, _NONE), None),
        "last_payment_error.message": ((str, _NONE), 500),
        "last_payment_error.code": ((str, _NONE), 60),
        "last_payment_error.decline_code": ((str, _NONE), 60),
    },
    "invoice.paid": {"customer": ((str, _NONE), 64)},
    "invoice.payment_failed": {"customer": ((str, _NONE), 64)},
    "customer.subscription.updated": {
        "customer": ((str, _NONE), 64),
        "status": ((str,), 20),
        "items": ((dict, _NONE), None),
        "items.data": ((list,), None),
        "items.data[]": ((dict,), None),
        "items.data[].price": ((dict, _NONE), None),
        "items.data[].price.lookup_key": ((str, _NONE), None),
        "metadata": ((dict, _NONE), None),
        "metadata.plan": ((str,), 10),
    },
    "customer.subscription.deleted": {"customer": ((str, _NONE), 64)},
    "terminal.reader.action_succeeded": _READER_FIELDS,
    "terminal.reader.action_failed": _READER_FIELDS,
    "application_fee.created": {
        "account": ((str, _NONE), 64),
        "amount": ((int,), None),
        "currency": ((str, _NONE), 3),
    },
}


def _string(value: object, name: str, longest: int, *, required: bool = True) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str) or not value or len(value) > longest:
        raise MalformedEvent(f"`{name}` must be a string of 1 to {longest} characters.")


def _values_at(obj: ProcessorObject, path: str) -> list[object]:
    """The values at a dotted path ("[]" = each element of a list), skipping absent ones."""
    values: list[object] = [obj]
    for step in path.split("."):
        each = step.endswith("[]")
        key = step.removesuffix("[]")
        values = [v[key] for v in values if isinstance(v, dict) and key in v]
        if each:
            values = [element for v in values if isinstance(v, list) for element in v]
    return values


def _check_object(event_type: str, obj: ProcessorObject) -> None:
    for path, (types, longest) in OBJECT_FIELDS.get(event_type, {}).items():
        for value in _values_at(obj, path):
            if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
                raise MalformedEvent(f"`data.object.{path}` has the wrong type.")
            if longest is not None and isinstance(value, str) and len(value) > longest:
                raise MalformedEvent(f"`data.object.{path}` is longer than {longest} characters.")
            if isinstance(value, int) and not -_INT_COLUMN <= value < _INT_COLUMN:
                raise MalformedEvent(f"`data.object.{path}` is out of range.")


def validate_event(event: object) -> ProcessorObject:
    """Check a parsed body has the shape the handlers read (types, lengths that fit the columns),
    so nothing malformed reaches the database half-way; return it. MalformedEvent otherwise."""
    if not isinstance(event, dict):
        raise MalformedEvent("the body must be a JSON object.")
    _string(event.get("id"), "id", 100)
    _string(event.get("type"), "type", 100)
    _string(event.get("account") or None, "account", 64, required=False)  # absent on platform events
    created = event.get("created", 0)
    if isinstance(created, bool) or not isinstance(created, int) or not 0 <= created <= _LATEST_CREATED:
        raise MalformedEvent("`created` must be Unix seconds.")
    data = event.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("object"), dict):
        raise MalformedEvent("`data.object` must be an object.")
    if event["type"] in HANDLERS:
        _string(data["object"].get("id"), "data.object.id", 64)
        _check_object(event["type"], data["object"])
    return event


def _apply(handler: Handler | None, obj: ProcessorObject, created: datetime) -> str:
    """Run a handler in a savepoint: a refusal (e.g. a move the order cannot make) is recorded as
    the outcome, so the event is not redelivered forever."""
    if handler is None:
        return "ignored: unhandled type"
    try:
        with transaction.atomic():
            return handler(obj, created)
    except DomainError as exc:
        return f"ignored: {exc.message}"


def _unsettled_payment(obj: ProcessorObject) -> Payment | None:
    """The payment an intent event would change, if it still may (else the handler answers)."""
    payment = Payment.objects.filter(intent_id=obj["id"]).first()
    return None if payment is None or payment.status == PaymentStatus.SUCCEEDED else payment


def _event_mismatch(event: ProcessorObject, payment: Payment) -> str:
    """Why the event's intent is not the payment's: account, amount, currency ("" when it is)."""
    obj = event["data"]["object"]
    account = event.get("account") or ""
    return intent_check.mismatch(payment, account=account, amount=obj.get("amount"), currency=obj.get("currency"))


def _processor_record(payment: Payment) -> tuple[processor.IntentState | None, str]:
    """The intent as the processor holds it, asked with no transaction open, or why not. A
    processor that does not answer raises (503: the processor redelivers the event later)."""
    try:
        return processor.intent_retrieve(intent_id=payment.intent_id, account_id=payment.account_id), ""
    except DomainError as exc:
        if exc.code != ErrorCode.PROCESSOR_ERROR:
            raise
        return None, f"the processor does not confirm it ({exc.message})"


def _succeeded_refusal(event: ProcessorObject) -> str:
    """Why a `payment_intent.succeeded` must not confirm its payment ("" if it may): the event's
    account, amount and currency must be the payment's, and the processor must hold the intent as
    succeeded for that amount."""
    obj = event["data"]["object"]
    payment = _unsettled_payment(obj)
    if payment is None:
        return ""
    refusal = _event_mismatch(event, payment)
    if refusal:
        return refusal
    intent, refusal = _processor_record(payment)
    refusal = refusal or intent_check.not_succeeded(payment, intent)  # type: ignore[arg-type]
    if not refusal:
        obj[CHECKED_CARD] = intent["card"]  # type: ignore[index]
    return refusal


def _failed_refusal(event: ProcessorObject) -> str:
    """Why a `payment_intent.payment_failed` must not fail its payment ("" if it may). An event
    naming the payment's account, amount and currency is applied as it says: only that account's
    own events carry its id. Any other (another connected account's, a platform event, another
    amount) is applied only if the processor's own record says the intent failed, for the
    payment's amount and currency, and with the record's error, never the event's text."""
    obj = event["data"]["object"]
    payment = _unsettled_payment(obj)
    if payment is None or not _event_mismatch(event, payment):
        return ""
    intent, refusal = _processor_record(payment)
    refusal = refusal or intent_check.not_failed(payment, intent)  # type: ignore[arg-type]
    if refusal:
        return f"{_event_mismatch(event, payment)}, and {refusal}"
    obj[CHECKED_ERROR] = intent["last_payment_error"]  # type: ignore[index]
    return ""


CHECKS: dict[str, Callable[[ProcessorObject], str]] = {
    "payment_intent.succeeded": _succeeded_refusal,
    "payment_intent.payment_failed": _failed_refusal,
}


def handle(event: ProcessorObject, *, endpoint: str) -> str:
    """Apply one verified event that passed validate_event. A redelivered event id is answered
    without effect; an event its check refuses is recorded with the refusal as its outcome."""
    if ProcessorEvent.objects.filter(event_id=event["id"]).exists():
        return "duplicate"
    check = CHECKS.get(event["type"])
    refusal = check(event) if check is not None else ""
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
            outcome = f"refused: {refusal}" if refusal else _apply(handler, event["data"]["object"], created)
            record.outcome = outcome[:200]
            record.save(update_fields=["outcome"])
    except IntegrityError:
        if ProcessorEvent.objects.filter(event_id=event["id"]).exists():
            return "duplicate"
        raise
    return outcome
