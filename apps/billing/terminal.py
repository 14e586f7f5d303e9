"""The processor's card readers (its server-driven Terminal API), through the same client and
the same bounded calls as every other processor call (apps/billing/processor.py): a location per
business, readers registered with a registration code, a reader handed a payment intent
(process_payment_intent) and its action cancelled. The processor's refusals that the kiosk and
agent must understand become their own errors: 409 READER_OFFLINE, 409 READER_BUSY, and a bad
registration code a 422 VALIDATION_ERROR on `registration_code`."""

import logging
from collections.abc import Callable
from typing import Any, TypedDict, TypeVar

import stripe

from apps.billing import processor
from apps.core.errors import DomainError, ErrorCode

log = logging.getLogger(__name__)


READER_STATUSES = ("online", "offline")  # a reader's status, as the processor reports it


class ActionState(TypedDict):
    """A reader's most recent action, as the processor names its fields."""

    type: str
    status: str  # in_progress, succeeded, failed
    failure_code: str
    failure_message: str
    payment_intent: str  # the intent of a process_payment_intent action, else ""


class ReaderState(TypedDict):
    id: str
    label: str
    device_type: str
    status: str  # online or offline
    action: ActionState | None


def _text(value: object, longest: int) -> str:
    return value[:longest] if isinstance(value, str) else ""


def action_of(action: object) -> ActionState | None:
    if not isinstance(action, dict):
        return None
    process = action.get("process_payment_intent")
    intent = process.get("payment_intent") if isinstance(process, dict) else None
    if isinstance(intent, dict):  # expanded
        intent = intent.get("id")
    return {
        "type": _text(action.get("type"), 40),
        "status": _text(action.get("status"), 20),
        "failure_code": _text(action.get("failure_code"), 60),
        "failure_message": _text(action.get("failure_message"), 300),
        "payment_intent": _text(intent, 64),
    }


def reader_of(obj: dict[str, Any]) -> ReaderState:
    """A terminal.reader object (an API answer or an event's data.object) as the service reads it."""
    return {
        "id": _text(obj.get("id"), 64),
        "label": _text(obj.get("label"), 100),
        "device_type": _text(obj.get("device_type"), 40),
        "status": "online" if obj.get("status") == "online" else "offline",
        "action": action_of(obj.get("action")),
    }


_Result = TypeVar("_Result")

READER_ERRORS = {
    "terminal_reader_offline": (
        ErrorCode.READER_OFFLINE,
        "The card reader is offline: check it is switched on and connected, then try again.",
    ),
    "terminal_reader_timeout": (
        ErrorCode.READER_OFFLINE,
        "The card reader did not answer: check it is switched on and connected, then try again.",
    ),
    "terminal_reader_busy": (
        ErrorCode.READER_BUSY,
        "The card reader is busy with another payment: try again in a moment.",
    ),
}


def _call(operation: Callable[..., _Result], *args: Any, **kwargs: Any) -> _Result:
    """processor.call, with the reader's own refusals named."""
    try:
        return processor.call(operation, *args, **kwargs)
    except DomainError as exc:
        cause = exc.__cause__
        code = getattr(cause, "code", None) if isinstance(cause, stripe.StripeError) else None
        if code in READER_ERRORS:
            error_code, message = READER_ERRORS[code]
            raise DomainError(error_code, message, headers={"Retry-After": "5"}) from exc
        if isinstance(cause, stripe.InvalidRequestError) and cause.param == "registration_code":
            raise DomainError(
                ErrorCode.VALIDATION_ERROR,
                "The reader's registration code was not accepted.",
                details={"registration_code": ["Not a registration code the processor knows, or already used."]},
            ) from exc
        raise


def location_create(*, account_id: str, display_name: str, address: dict[str, str], idempotency_key: str) -> str:
    location = _call(
        processor.client().v1.terminal.locations.create,
        params={"display_name": display_name, "address": address},
        options={"stripe_account": account_id, "idempotency_key": idempotency_key},
    )
    return location.id


def reader_create(*, account_id: str, location_id: str, registration_code: str, label: str) -> ReaderState:
    reader = _call(
        processor.client().v1.terminal.readers.create,
        params={"registration_code": registration_code, "label": label, "location": location_id},
        options={"stripe_account": account_id},
    )
    return reader_of(reader.to_dict())


def reader_retrieve(*, account_id: str, reader_id: str) -> ReaderState:
    reader = _call(processor.client().v1.terminal.readers.retrieve, reader_id, options={"stripe_account": account_id})
    return reader_of(reader.to_dict())


def reader_delete_quietly(*, account_id: str, reader_id: str) -> None:
    """Unregister a reader the service no longer uses; a failure is only logged (the reader is
    no kiosk's any more: nothing is handed to it)."""
    try:
        _call(processor.client().v1.terminal.readers.delete, reader_id, options={"stripe_account": account_id})
    except DomainError as exc:
        log.warning("reader %s not unregistered at the processor: %s", reader_id, exc.message)


def process_payment_intent(*, account_id: str, reader_id: str, intent_id: str) -> ReaderState:
    """Hand the intent to the reader, which asks for a card. A reader already holding this very
    intent (a retry after a lost answer) is as good as handed."""
    try:
        reader = _call(
            processor.client().v1.terminal.readers.process_payment_intent,
            reader_id,
            params={"payment_intent": intent_id},
            options={"stripe_account": account_id},
        )
    except DomainError as exc:
        if exc.code != ErrorCode.READER_BUSY:
            raise
        current = reader_retrieve(account_id=account_id, reader_id=reader_id)
        action = current["action"]
        if action and action["status"] == "in_progress" and action["payment_intent"] == intent_id:
            return current
        raise
    return reader_of(reader.to_dict())


def cancel_action(*, account_id: str, reader_id: str) -> ReaderState:
    reader = _call(
        processor.client().v1.terminal.readers.cancel_action, reader_id, options={"stripe_account": account_id}
    )
    return reader_of(reader.to_dict())
