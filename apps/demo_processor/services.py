"""What the demo processor does: the calls the service makes through the `stripe` library
(intents, cancel, refunds, accounts, account links), the kiosk's demo card confirm, and demo
onboarding. Every change commits before its event is sent (apps/demo_processor/processor_webhooks.py)."""

import secrets
import time

from django.db import transaction
from django.db.models import Sum

from apps.demo_processor import cards, processor_webhooks
from apps.demo_processor.errors import DemoError, ProcessorJson, invalid, missing
from apps.demo_processor.models import DemoAccount, DemoIntentStatus, DemoPaymentIntent, DemoRefund

MAX_AMOUNT = 99_999_999


def _charge_json(intent: DemoPaymentIntent) -> ProcessorJson:
    """The charge of a succeeded intent, as the processor gives it when asked to expand it."""
    return {
        "id": "ch_demo_" + intent.intent_id.removeprefix("pi_demo_"),
        "object": "charge",
        "amount": intent.amount,
        "currency": intent.currency,
        "status": "succeeded",
        "payment_intent": intent.intent_id,
        "payment_method_details": _payment_method_details(intent),
    }


# The chip applications the demo's cards carry (a chip read's receipt names them as the
# processor does: application_preferred_name, and dedicated_file_name, the application's AID).
CHIP_APPLICATIONS = {
    "visa": ("Visa Credit", "A0000000031010"),
    "mastercard": ("Mastercard", "A0000000041010"),
    "amex": ("American Express", "A00000002501"),
    "discover": ("Discover", "A0000001523010"),
}
# The read methods that read the card's chip (in contact or contactless), so give a receipt.
CHIP_READS = ("contact_emv", "contactless_emv")


def _payment_method_details(intent: DemoPaymentIntent) -> ProcessorJson:
    card = {"brand": intent.card_brand or None, "last4": intent.card_last4 or None}
    if not intent.card_read_method:
        return {"type": "card", "card": card}
    # Read by a reader: the processor names it card_present, with how the card was read and,
    # for a chip, the receipt's application fields (the real processor's shape, fewer fields).
    present: ProcessorJson = {**card, "read_method": intent.card_read_method, "receipt": None}
    application = CHIP_APPLICATIONS.get(intent.card_brand)
    if intent.card_read_method in CHIP_READS and application is not None:
        name, aid = application
        present["receipt"] = {
            "account_type": "credit",
            "application_preferred_name": name,
            "dedicated_file_name": aid,
            "authorization_response_code": "3030",
            "application_cryptogram": "demo" + intent.intent_id[-12:],
            "cardholder_verification_method": "none",
        }
    return {"type": "card_present", "card_present": present}


def _method_types(intent: DemoPaymentIntent) -> list[str]:
    return list(intent.payment_method_types) or ["card"]


def intent_json(intent: DemoPaymentIntent, *, expand: tuple[str, ...] = ()) -> ProcessorJson:
    """The intent; its `latest_charge` is the charge's id, or the charge itself when expanded."""
    charge = _charge_json(intent) if intent.status == DemoIntentStatus.SUCCEEDED else None
    return {
        "id": intent.intent_id,
        "object": "payment_intent",
        "amount": intent.amount,
        "amount_received": intent.amount if intent.status == DemoIntentStatus.SUCCEEDED else 0,
        "currency": intent.currency,
        "status": intent.status,
        "client_secret": intent.client_secret,
        "description": intent.description or None,
        "metadata": intent.metadata,
        "payment_method_types": _method_types(intent),
        "last_payment_error": intent.last_error,
        "latest_charge": (charge if "latest_charge" in expand else charge["id"]) if charge else None,
        "created": int(intent.created_at.timestamp()),
        "livemode": False,
    }


def account_json(account: DemoAccount) -> ProcessorJson:
    return {
        "id": account.account_id,
        "object": "account",
        "type": "standard",
        "charges_enabled": account.charges_enabled,
        "payouts_enabled": account.charges_enabled,
        "details_submitted": account.charges_enabled,
        "requirements": {"disabled_reason": None, "pending_verification": []},
        "metadata": account.metadata,
    }


def _charging_account(account_id: str) -> DemoAccount:
    account = DemoAccount.objects.filter(account_id=account_id).first() if account_id else None
    if account is None:
        raise DemoError(403, "invalid_request_error", "The demo key has no access to this connected account.")
    if not account.charges_enabled:
        raise invalid("account", "This connected account cannot take charges yet: finish demo onboarding.")
    return account


def intent_create(*, account_id: str, params: dict[str, str]) -> ProcessorJson:
    _charging_account(account_id)
    try:
        amount = int(params.get("amount", ""))
    except ValueError:
        raise invalid("amount", "amount must be a whole number of the currency's smallest unit.") from None
    if not 1 <= amount <= MAX_AMOUNT:
        raise invalid("amount", f"amount must be between 1 and {MAX_AMOUNT}.")
    currency = params.get("currency", "").lower()
    if not (len(currency) == 3 and currency.isascii() and currency.isalpha()):
        raise invalid("currency", "currency must be a three-letter ISO code.")
    metadata = {key[9:-1]: value for key, value in params.items() if key.startswith("metadata[") and key.endswith("]")}
    methods = [value for key, value in sorted(params.items()) if key.startswith("payment_method_types[")]
    if any(method not in ("card", "card_present") for method in methods):
        raise invalid("payment_method_types", "The demo processor takes card and card_present payments only.")
    intent_id = "pi_demo_" + secrets.token_hex(10)
    intent = DemoPaymentIntent.objects.create(
        intent_id=intent_id,
        account_id=account_id,
        client_secret=f"{intent_id}_secret_{secrets.token_urlsafe(18)}",
        amount=amount,
        currency=currency,
        description=params.get("description", "")[:500],
        metadata=dict(list(metadata.items())[:50]),
        status=DemoIntentStatus.REQUIRES_PAYMENT_METHOD,
        payment_method_types=methods or ["card"],
    )
    return intent_json(intent)


def _intent_on(account_id: str, intent_id: str, *, lock: bool = False) -> DemoPaymentIntent:
    rows = DemoPaymentIntent.objects.select_for_update() if lock else DemoPaymentIntent.objects
    intent = rows.filter(intent_id=intent_id, account_id=account_id).first()
    if intent is None:
        raise missing("payment_intent", intent_id)
    return intent


def intent_retrieve(*, account_id: str, intent_id: str, expand: tuple[str, ...] = ()) -> ProcessorJson:
    return intent_json(_intent_on(account_id, intent_id), expand=expand)


def intent_cancel(*, account_id: str, intent_id: str) -> ProcessorJson:
    intent = _intent_on(account_id, intent_id, lock=True)
    if intent.status == DemoIntentStatus.SUCCEEDED:
        raise _unexpected_state(intent, "cancel")
    intent.status = DemoIntentStatus.CANCELED
    intent.save(update_fields=["status"])
    return intent_json(intent)


def _unexpected_state(intent: DemoPaymentIntent, verb: str) -> DemoError:
    return DemoError(
        400,
        "invalid_request_error",
        f"You cannot {verb} this PaymentIntent because it has a status of {intent.status}.",
        code="payment_intent_unexpected_state",
        extra={"payment_intent": intent_json(intent)},
    )


def refund_create(*, account_id: str, params: dict[str, str]) -> ProcessorJson:
    intent = _intent_on(account_id, params.get("payment_intent", ""), lock=True)
    if intent.status != DemoIntentStatus.SUCCEEDED:
        raise invalid("payment_intent", "This PaymentIntent has not succeeded: there is nothing to refund.")
    refunded = intent.refunds.aggregate(total=Sum("amount"))["total"] or 0
    try:
        amount = int(params.get("amount", intent.amount - refunded))
    except ValueError:
        raise invalid("amount", "amount must be a whole number.") from None
    if not 1 <= amount <= intent.amount - refunded:
        raise invalid("amount", f"amount must be between 1 and {intent.amount - refunded}.")
    refund = DemoRefund.objects.create(
        refund_id="re_demo_" + secrets.token_hex(10), intent=intent, amount=amount, reason=params.get("reason", "")[:40]
    )
    return {
        "id": refund.refund_id,
        "object": "refund",
        "amount": amount,
        "currency": intent.currency,
        "payment_intent": intent.intent_id,
        "status": "succeeded",
        "created": int(refund.created_at.timestamp()),
    }


def account_create(*, params: dict[str, str]) -> ProcessorJson:
    """A new connected account; it takes charges once demo onboarding is finished."""
    metadata = {key[9:-1]: value for key, value in params.items() if key.startswith("metadata[") and key.endswith("]")}
    account = DemoAccount.objects.create(account_id="acct_demo_" + secrets.token_hex(8), metadata=metadata)
    return account_json(account)


def account_link_create(*, params: dict[str, str], onboarding_url: str) -> ProcessorJson:
    account = DemoAccount.objects.filter(account_id=params.get("account", "")).first()
    if account is None:
        raise missing("account", params.get("account", ""), "account")
    return_url = params.get("return_url", "")
    if not return_url.startswith(("http://", "https://")) or len(return_url) > 500:
        raise invalid("return_url", "return_url must be an http(s) URL.")
    account.return_url = return_url
    account.save(update_fields=["return_url"])
    return {"object": "account_link", "url": onboarding_url, "created": int(time.time())}


def account_open(account_id: str) -> DemoAccount:
    """A connected account that takes charges at once (seed_demo's owners, tests)."""
    account, _ = DemoAccount.objects.update_or_create(account_id=account_id, defaults={"charges_enabled": True})
    return account


def onboarding_finish(account_id: str) -> DemoAccount:
    """The owner finished demo onboarding: charges enabled, `account.updated` sent."""
    with transaction.atomic():
        account = DemoAccount.objects.select_for_update().filter(account_id=account_id).first()
        if account is None:
            raise missing("account", account_id, "account")
        account.charges_enabled = True
        account.save(update_fields=["charges_enabled"])
    processor_webhooks.send("account.updated", account_json(account), account=account.account_id)
    return account


def confirm(*, intent_id: str, client_secret: object, card_number: object) -> tuple[int, ProcessorJson]:
    """The kiosk's demo card form: authorised by the client secret. A succeeding card answers 200
    with the intent; a declined one 402 with the processor's card error and the intent, which
    stays payable with another card. The event goes to the service once the change is committed."""
    with transaction.atomic():
        intent = DemoPaymentIntent.objects.select_for_update().filter(intent_id=intent_id).first()
        if intent is None or not isinstance(client_secret, str):
            raise missing("payment_intent", intent_id)
        if not secrets.compare_digest(intent.client_secret.encode(), client_secret.encode("utf-8", "replace")):
            raise missing("payment_intent", intent_id)
        number = cards.normalised(card_number)
        if intent.status != DemoIntentStatus.REQUIRES_PAYMENT_METHOD:
            raise _unexpected_state(intent, "confirm")
        if "card" not in _method_types(intent):  # card_present only: a card is read by the reader
            raise invalid("payment_intent", "This PaymentIntent is paid on a card reader, not with a typed card.")
        failure = cards.OUTCOMES[number]
        if failure is None:
            intent.status, intent.last_error = DemoIntentStatus.SUCCEEDED, None
            intent.card_brand, intent.card_last4 = cards.brand_of(number), number[-4:]
        else:
            intent.last_error = {"type": "card_error", **failure}
        intent.save(update_fields=["status", "last_error", "card_brand", "card_last4"])
        body = intent_json(intent)
    if failure is None:
        processor_webhooks.send("payment_intent.succeeded", body, account=intent.account_id)
        return 200, body
    processor_webhooks.send("payment_intent.payment_failed", body, account=intent.account_id)
    error = DemoError(402, "card_error", failure["message"], code=failure["code"], extra={"payment_intent": body})
    if "decline_code" in failure:
        error.extra["decline_code"] = failure["decline_code"]
    return 402, error.body()
