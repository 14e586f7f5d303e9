"""The demo processor's card readers: the processor's Terminal API as the `stripe` library calls
it (locations, readers registered with a simulated registration code, a reader's
process_payment_intent and cancel_action) and its test helper present_payment_method, which
taps a demo card on a simulated reader. Every change commits before its events are sent
(payment_intent.succeeded / .payment_failed, then terminal.reader.action_succeeded / _failed),
as for the kiosk's demo card form."""

import secrets
import time
import uuid

from django.db import transaction

from apps.demo_processor import cards, processor_webhooks
from apps.demo_processor.errors import DemoError, ProcessorJson, invalid, missing
from apps.demo_processor.models import DemoIntentStatus, DemoLocation, DemoPaymentIntent, DemoReader
from apps.demo_processor.services import intent_json

# The processor's simulated registration codes and the simulated device each one registers.
SIMULATED_CODES = {"simulated-wpe": "simulated_wisepos_e", "simulated-s700": "simulated_stripe_s700"}
# How the demo reader reads a card: a tap unless the test helper says otherwise (the processor's
# names: a tap, a chip inserted, a swipe).
READ_METHOD = "contactless_emv"
READ_METHODS = ("contactless_emv", "contact_emv", "magnetic_stripe_track2")
# A card taken away before the reader read it: the reader's action fails (the demo's own code: a
# real reader reports its read errors in its own words), the intent waits for another card.
READ_FAILURE = {"code": "card_read_failed", "message": "The card was removed too early. Present it again."}
# The cards the reader's demo page offers: a demo card number, or None for the card removed early.
PAGE_CARDS: dict[str, str | None] = {
    "approved": cards.SUCCEEDS,
    "declined": cards.DECLINED,
    "insufficient_funds": cards.INSUFFICIENT_FUNDS,
    "removed_too_early": None,
}


def _form_dict(params: dict[str, str], name: str) -> dict[str, str]:
    """`name[key]=value` form fields as {key: value}."""
    prefix = f"{name}["
    return {
        key[len(prefix) : -1]: value for key, value in params.items() if key.startswith(prefix) and key.endswith("]")
    }


def location_json(location: DemoLocation) -> ProcessorJson:
    return {
        "id": location.location_id,
        "object": "terminal.location",
        "address": location.address,
        "configuration_overrides": None,
        "display_name": location.display_name,
        "livemode": False,
        "metadata": location.metadata,
    }


def reader_json(reader: DemoReader) -> ProcessorJson:
    return {
        "id": reader.reader_id,
        "object": "terminal.reader",
        "action": reader.action,
        "device_sw_version": "demo",
        "device_type": reader.device_type,
        "ip_address": None,  # a simulated reader has no network address
        "label": reader.label,
        "last_seen_at": int(time.time() * 1000) if reader.status == "online" else None,
        "livemode": False,
        "location": reader.location.location_id,
        "metadata": reader.metadata,
        "serial_number": reader.serial_number,
        "status": reader.status,
    }


def location_create(*, account_id: str, params: dict[str, str]) -> ProcessorJson:
    display_name = params.get("display_name", "").strip()
    if not display_name:
        raise invalid("display_name", "display_name is required.")
    address = _form_dict(params, "address")
    if not address.get("country"):
        raise invalid("address", "address[country] is required.")
    location = DemoLocation.objects.create(
        location_id="tml_demo_" + secrets.token_hex(8),
        account_id=account_id,
        display_name=display_name[:1000],
        address=address,
        metadata=_form_dict(params, "metadata"),
    )
    return location_json(location)


def location_list(*, account_id: str) -> ProcessorJson:
    locations = DemoLocation.objects.filter(account_id=account_id).order_by("-created_at")
    return {
        "object": "list",
        "data": [location_json(location) for location in locations[:100]],
        "has_more": False,
        "url": "/v1/terminal/locations",
    }


def reader_create(*, account_id: str, params: dict[str, str]) -> ProcessorJson:
    code = params.get("registration_code", "")
    device_type = SIMULATED_CODES.get(code)
    if device_type is None:
        raise DemoError(
            400,
            "invalid_request_error",
            "The registration code is invalid. This is the demo processor: use simulated-wpe or simulated-s700.",
            code="parameter_invalid",
            param="registration_code",
        )
    location = DemoLocation.objects.filter(location_id=params.get("location", ""), account_id=account_id).first()
    if location is None:
        raise missing("terminal.location", params.get("location", ""), "location")
    reader = DemoReader.objects.create(
        reader_id="tmr_demo_" + secrets.token_hex(8),
        account_id=account_id,
        location=location,
        label=(params.get("label") or code)[:100],
        device_type=device_type,
        serial_number=str(uuid.uuid4()),
        metadata=_form_dict(params, "metadata"),
    )
    return reader_json(reader)


def _reader_on(account_id: str, reader_id: str, *, lock: bool = False) -> DemoReader:
    rows = DemoReader.objects.select_for_update() if lock else DemoReader.objects
    reader = rows.select_related("location").filter(reader_id=reader_id, account_id=account_id).first()
    if reader is None:
        raise missing("terminal.reader", reader_id)
    return reader


def reader_retrieve(*, account_id: str, reader_id: str) -> ProcessorJson:
    return reader_json(_reader_on(account_id, reader_id))


def reader_delete(*, account_id: str, reader_id: str) -> ProcessorJson:
    reader = _reader_on(account_id, reader_id, lock=True)
    reader.delete()
    return {"id": reader_id, "object": "terminal.reader", "deleted": True}


def _offline(reader: DemoReader) -> DemoError:
    return DemoError(
        400,
        "invalid_request_error",
        "Reader is currently offline, please ensure the reader is powered on and connected to the internet "
        "before retrying your request.",
        code="terminal_reader_offline",
    )


def _holding(reader: DemoReader) -> str | None:
    """The intent the reader is waiting for a card for, if any."""
    action = reader.action or {}
    if action.get("type") == "process_payment_intent" and action.get("status") == "in_progress":
        intent_id: str = action["process_payment_intent"]["payment_intent"]
        return intent_id
    return None


def reader_process_payment_intent(*, account_id: str, reader_id: str, params: dict[str, str]) -> ProcessorJson:
    reader = _reader_on(account_id, reader_id, lock=True)
    if reader.status != "online":
        raise _offline(reader)
    intent_id = params.get("payment_intent", "")
    held = _holding(reader)
    if held is not None and held != intent_id:
        raise DemoError(
            400,
            "invalid_request_error",
            "Reader is currently busy processing another request. Cancel the action or wait for it to finish.",
            code="terminal_reader_busy",
        )
    intent = DemoPaymentIntent.objects.filter(intent_id=intent_id, account_id=account_id).first()
    if intent is None:
        raise missing("payment_intent", intent_id, "payment_intent")
    if "card_present" not in intent.payment_method_types:
        raise invalid("payment_intent", "This PaymentIntent does not accept card_present payments.")
    if intent.status != DemoIntentStatus.REQUIRES_PAYMENT_METHOD:
        raise DemoError(
            400,
            "invalid_request_error",
            f"This PaymentIntent's status is {intent.status}: it cannot be processed on a reader.",
            code="payment_intent_unexpected_state",
        )
    reader.action = {
        "type": "process_payment_intent",
        "status": "in_progress",
        "failure_code": None,
        "failure_message": None,
        "process_payment_intent": {"payment_intent": intent_id},
    }
    reader.save(update_fields=["action"])
    return reader_json(reader)


def reader_cancel_action(*, account_id: str, reader_id: str, params: dict[str, str] | None = None) -> ProcessorJson:
    """The reader gives up its current action and shows its idle screen (action null). It reads no
    parameters (it takes them as every reader action does)."""
    reader = _reader_on(account_id, reader_id, lock=True)
    if reader.status != "online":
        raise _offline(reader)
    reader.action = None
    reader.save(update_fields=["action"])
    return reader_json(reader)


def reader_present_payment_method(*, account_id: str, reader_id: str, params: dict[str, str]) -> ProcessorJson:
    """Test helper: a card is tapped on the simulated reader holding a payment. The number picks
    the outcome (cards.OUTCOMES: approved, declined, insufficient funds)."""
    number = cards.normalised(params.get("card_present[number]") or params.get("card[number]") or cards.SUCCEEDS)
    # The demo's own field (the real helper always taps): how the card is read.
    read_method = params.get("card_present[read_method]") or READ_METHOD
    if read_method not in READ_METHODS:
        raise invalid("card_present[read_method]", f"read_method must be one of {', '.join(READ_METHODS)}.")
    return _present(account_id, reader_id, number, read_method)


def _present(account_id: str, reader_id: str, number: str | None, read_method: str = READ_METHOD) -> ProcessorJson:
    """A card on the reader holding a payment: `number` read (its outcome from cards.OUTCOMES) the
    way `read_method` says, or None for a card taken away before the reader read it (the reader's
    action fails, the intent is untouched: no card was read). The changes commit, then the events
    are sent."""
    with transaction.atomic():
        reader = _reader_on(account_id, reader_id, lock=True)
        if reader.status != "online":  # an unplugged reader reads no card
            raise _offline(reader)
        intent_id = _holding(reader)
        if intent_id is None:  # idle, its action cancelled, or its last card already answered
            raise DemoError(
                400,
                "invalid_request_error",
                "This reader has no payment in progress to present a payment method to.",
                code="terminal_reader_invalid_action",  # the demo's own code: the reader is idle
            )
        intent = DemoPaymentIntent.objects.select_for_update().get(intent_id=intent_id)
        if intent.status != DemoIntentStatus.REQUIRES_PAYMENT_METHOD:  # cancelled (or paid) under the reader
            raise DemoError(
                400,
                "invalid_request_error",
                f"This PaymentIntent's status is {intent.status}: no payment method can be presented for it.",
                code="payment_intent_unexpected_state",
            )
        failure = READ_FAILURE if number is None else cards.OUTCOMES[number]
        action = dict(reader.action or {})
        if number is None:
            action.update(status="failed", failure_code=READ_FAILURE["code"], failure_message=READ_FAILURE["message"])
        elif failure is None:
            intent.status, intent.last_error = DemoIntentStatus.SUCCEEDED, None
            intent.card_brand, intent.card_last4 = cards.brand_of(number), number[-4:]
            intent.card_read_method = read_method
            action.update(status="succeeded")
        else:
            intent.last_error = {"type": "card_error", **failure}
            action.update(status="failed", failure_code=failure["code"], failure_message=failure["message"])
        if number is not None:
            intent.save(update_fields=["status", "last_error", "card_brand", "card_last4", "card_read_method"])
        reader.action = action
        reader.save(update_fields=["action"])
        intent_body, reader_body = intent_json(intent), reader_json(reader)
    if failure is None:
        processor_webhooks.send("payment_intent.succeeded", intent_body, account=account_id)
        processor_webhooks.send("terminal.reader.action_succeeded", reader_body, account=account_id)
    else:
        if number is not None:
            processor_webhooks.send("payment_intent.payment_failed", intent_body, account=account_id)
        processor_webhooks.send("terminal.reader.action_failed", reader_body, account=account_id)
    return reader_body


def page_state(reader_id: str) -> ProcessorJson | None:
    """What the reader's demo page shows: the reader, and its last payment action with the amount
    it asks for (None for an unknown reader)."""
    reader = DemoReader.objects.filter(reader_id=reader_id).first()
    if reader is None:
        return None
    action = reader.action or {}
    intent_id = (action.get("process_payment_intent") or {}).get("payment_intent")
    intent = DemoPaymentIntent.objects.filter(intent_id=intent_id).first() if intent_id else None
    shown = None
    if intent is not None and action.get("status") in ("in_progress", "succeeded", "failed"):
        shown = {
            "status": action["status"],
            "payment_intent": intent.intent_id,
            "amount": intent.amount,
            "currency": intent.currency,
            "failure_code": action.get("failure_code"),
            "failure_message": action.get("failure_message"),
        }
    return {"id": reader.reader_id, "label": reader.label, "status": reader.status, "action": shown}


def page_present(reader_id: str, card: str) -> ProcessorJson:
    """The reader's demo page presents one of its demo cards, through the test helper's path."""
    if card not in PAGE_CARDS:
        raise invalid("card", f"Present one of the demo cards: {', '.join(PAGE_CARDS)}.")
    reader = DemoReader.objects.filter(reader_id=reader_id).first()
    if reader is None:
        raise missing("terminal.reader", reader_id)
    return _present(reader.account_id, reader.reader_id, PAGE_CARDS[card])


def reader_set_status(reader_id: str, *, online: bool) -> DemoReader:
    """The demo's own switch (a real reader goes offline when unplugged): for tests and the
    reader's demo page."""
    reader = DemoReader.objects.get(reader_id=reader_id)
    reader.status = "online" if online else "offline"
    reader.save(update_fields=["status"])
    return reader
