"""Whether a payment intent, as an event or the processor describes it, is the one we asked for: the
same connected account, amount and currency as our Payment. Both the processor event and the
reconciliation sweep confirm an order only for a matching intent that the processor itself says has
succeeded (a signed event with another amount once confirmed a 978-cent order for 1 cent); a failure
event that does not match is applied only if the processor's record says the intent failed."""

from apps.billing.models import Payment
from apps.billing.processor import IntentState


def mismatch(payment: Payment, *, account: str | None, amount: object, currency: object) -> str:
    """Why the intent is not the payment's ("" when it is)."""
    if account is not None and account != payment.account_id:
        return f"the intent is on account {account!r}, the payment on {payment.account_id!r}"
    if isinstance(amount, bool) or amount != payment.amount_cents:
        return f"the intent is for {amount!r} cents, the payment for {payment.amount_cents}"
    if not isinstance(currency, str) or currency.lower() != payment.currency.lower():
        return f"the intent is in {currency!r}, the payment in {payment.currency.lower()!r}"
    return ""


def not_succeeded(payment: Payment, intent: IntentState) -> str:
    """Why the processor's own record (processor.intent_retrieve) does not confirm the payment
    ("" when it does)."""
    if intent["status"] != "succeeded":
        return f"the processor says the intent is {intent['status']}"
    return mismatch(payment, account=None, amount=intent["amount"], currency=intent["currency"])


def not_failed(payment: Payment, intent: IntentState) -> str:
    """Why the processor's own record does not say the payment's card failed ("" when it does):
    the intent waits for another card after an error, for the payment's amount and currency."""
    if intent["status"] != "requires_payment_method" or not intent["last_payment_error"]:
        return f"the processor says the intent is {intent['status']} with no card error"
    return mismatch(payment, account=None, amount=intent["amount"], currency=intent["currency"])
