"""The one place that talks to the payment processor, through the official `stripe` library.

PROCESSOR_API_BASE points the library elsewhere: a local stand-in in tests, or the project's own
demo processor, which settings select with a demo key in local and test runs without a key
(apps/demo_processor; the calls here are the same). Without PROCESSOR_SECRET_KEY (production
without a key, or DEMO_PROCESSOR=false) every call answers 503 PROCESSOR_NOT_CONFIGURED.
Every request is bounded: PROCESSOR_TIMEOUT seconds per attempt, PROCESSOR_MAX_NETWORK_RETRIES
retries (the library resends the same Idempotency-Key). Callers never hold a transaction or a
row lock across a call (apps/billing/processor_calls.py).
"""

import functools
import logging
from collections.abc import Callable
from typing import Any, NotRequired, ParamSpec, TypedDict, TypeVar

import stripe
from django.conf import settings
from django.db import connection

from apps.core.errors import DomainError, ErrorCode
from apps.demo_processor import in_process as demo_in_process

log = logging.getLogger(__name__)


def client() -> stripe.StripeClient:
    if not settings.PROCESSOR_SECRET_KEY:
        raise DomainError(ErrorCode.PROCESSOR_NOT_CONFIGURED, "Payments are not configured on this server.")
    return _client(
        settings.PROCESSOR_SECRET_KEY,
        settings.PROCESSOR_API_BASE,
        settings.PROCESSOR_TIMEOUT,
        settings.PROCESSOR_MAX_NETWORK_RETRIES,
    )


@functools.lru_cache(maxsize=4)
def _client(secret_key: str, api_base: str, timeout: float, retries: int) -> stripe.StripeClient:
    """One client per configuration, reused: its HTTP sessions (one per thread) keep their
    connections to the processor open between calls."""
    demo = demo_in_process.handles(api_base)  # the demo processor in this process (no port)
    return stripe.StripeClient(
        secret_key,
        base_addresses={"api": api_base} if api_base else {},
        http_client=demo_in_process.InProcessDemoClient() if demo else stripe.RequestsClient(timeout=timeout),
        max_network_retries=retries,
    )


def longest_call_seconds() -> float:
    """An upper bound on one call: every attempt times out, with the library's backoff (at most
    5 s) between attempts. A reservation left behind by a crashed process expires after it."""
    attempts = settings.PROCESSOR_MAX_NETWORK_RETRIES + 1
    return attempts * settings.PROCESSOR_TIMEOUT + (attempts - 1) * stripe.HTTPClient.MAX_DELAY + 1


def _lend_back_connection() -> None:
    """Outside a transaction, give the database connection back to the pool for the duration of
    the call: a slow processor must not hold one of the pool's few connections."""
    if not connection.in_atomic_block and getattr(connection, "pool", None) is not None:
        connection.close()


_Params = ParamSpec("_Params")
_Result = TypeVar("_Result")


def call(operation: Callable[_Params, _Result], *args: _Params.args, **kwargs: _Params.kwargs) -> _Result:
    """Run a processor call. A refusal (4xx) is 502 PROCESSOR_ERROR with the processor's message;
    no answer in time, a refused connection, a 5xx or a 429 is 503 PROCESSOR_UNAVAILABLE."""
    _lend_back_connection()
    try:
        return operation(*args, **kwargs)
    except stripe.APIConnectionError as exc:
        log.warning("processor unreachable: %s", exc.__class__.__name__)
        raise _unavailable() from exc
    except stripe.StripeError as exc:
        status = exc.http_status or 0
        if status >= 500 or status == 429:
            log.warning("processor unavailable: HTTP %s", status)
            raise _unavailable() from exc
        message = getattr(exc, "user_message", None) or str(exc) or exc.__class__.__name__
        raise DomainError(
            ErrorCode.PROCESSOR_ERROR, "The payment processor refused: {message}", params={"message": message}
        ) from exc


def _unavailable() -> DomainError:
    return DomainError(
        ErrorCode.PROCESSOR_UNAVAILABLE,
        "The payment processor did not answer in time. Nothing was changed: try again in a moment.",
        headers={"Retry-After": "5"},
    )


class IntentError(TypedDict):
    message: str | None
    code: str | None  # the cause: decline_code, else code


class CardState(TypedDict):
    """The card that paid, as the processor names it: brand ("visa", "mastercard") and last four;
    for a card read by a reader (card_present) also how it was read (the processor's read_method:
    contactless_emv, contact_emv, magnetic_stripe_track2, ...) and, for a chip read, the card's
    application as the processor's receipt names it (application_preferred_name, and
    dedicated_file_name: its identifier, the AID), when given."""

    brand: str
    last4: str
    read_method: NotRequired[str]
    application_name: NotRequired[str]
    application_id: NotRequired[str]


class IntentState(TypedDict):
    """A payment intent as intent_retrieve reads it (the processor's fields of that name)."""

    id: str | None
    status: str | None
    amount: int | None
    currency: str
    last_payment_error: IntentError | None
    card: CardState | None


def _error_of(error: dict[str, Any]) -> IntentError:
    return {"message": error.get("message"), "code": error.get("decline_code") or error.get("code")}


def card_of(intent: dict[str, object]) -> CardState | None:
    """The card of an intent read with its latest charge expanded (latest_charge ->
    payment_method_details.card); None when the processor does not say (not a card, not paid,
    not expanded) or says something that does not fit the columns."""
    charge = intent.get("latest_charge")
    details = charge.get("payment_method_details") if isinstance(charge, dict) else None
    # A card read by a reader is `card_present` (with its read method), a typed one `card`.
    card = (details.get("card") or details.get("card_present")) if isinstance(details, dict) else None
    if not isinstance(card, dict):
        return None
    brand, last4 = card.get("brand"), card.get("last4")
    if not isinstance(brand, str) or not 0 < len(brand) <= 20 or not isinstance(last4, str):
        return None
    if len(last4) != 4 or not last4.isascii() or not last4.isdigit():
        return None
    found: CardState = {"brand": brand.lower(), "last4": last4}
    if isinstance(details, dict) and not details.get("card"):  # read by a reader: card_present
        found["read_method"] = _fitting(card.get("read_method"), 30, "_")
        receipt = card.get("receipt")
        if isinstance(receipt, dict):
            found["application_name"] = _fitting(receipt.get("application_preferred_name"), 40, " -_./")
            found["application_id"] = _fitting(receipt.get("dedicated_file_name"), 32, "")
    return found


def _fitting(value: object, longest: int, also: str) -> str:
    """A processor's text that fits its column and is only letters, digits and `also`; else ""."""
    if not isinstance(value, str) or len(value) > longest:
        return ""
    return value if value.isascii() and all(ch.isalnum() or ch in also for ch in value) else ""


def intent_retrieve(*, intent_id: str, account_id: str) -> IntentState:
    """The payment intent as the processor holds it now: id, status, amount, currency and the
    last card error. The demo processor is read like any other, through the library: its client
    hands the request to the demo processor in this process (apps/demo_processor/in_process.py),
    so a check made while it delivers an event needs no second request to this same server."""
    found = call(
        client().v1.payment_intents.retrieve,
        intent_id,
        params={"expand": ["latest_charge"]},
        options={"stripe_account": account_id},
    ).to_dict()
    error = found.get("last_payment_error") or None
    return {
        "id": found.get("id"),
        "status": found.get("status"),
        "amount": found.get("amount"),
        "currency": (found.get("currency") or "").lower(),
        "last_payment_error": _error_of(error) if error else None,
        "card": card_of(found),
    }
