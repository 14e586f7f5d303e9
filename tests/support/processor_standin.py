"""A local stand-in for the payment processor's API, for the real `stripe` library to talk to.

It answers the calls the service makes (payment intents, cancel, refunds, connected accounts,
account links, retrieving an intent) like the processor does, honours Idempotency-Key like the
processor does (same key -> same response), and records every request: method, path, headers, decoded form body.

Fault modes: `fail_next` (one 402 refusal), `fail(status, times)` (refusals or 5xx errors, the
call not carried out), `delay_seconds` (the call is carried out, then the answer comes late, as
when the network loses it), and `during_call` (a function run in the server's thread while a
request is being answered, e.g. to probe the database from another connection).
"""

import json
import secrets
import threading
import time
from dataclasses import dataclass
from urllib.parse import parse_qsl

from tests.support.loopback import Answer, LoopbackServer


@dataclass
class Call:
    method: str
    path: str
    headers: dict
    params: dict


class ProcessorStandIn(LoopbackServer):
    def __init__(self):
        super().__init__()
        self.calls: list[Call] = []
        self.intents: dict[str, dict] = {}
        self.intent_accounts: dict[str, str | None] = {}  # intent id -> the connected account it is on
        self.by_idempotency_key: dict[str, dict] = {}
        self.fail_next: dict | None = None  # an error body to answer the next call with (status 402)
        self.failures: list[tuple[int, dict]] = []  # (status, error body) for the next calls, in order
        self.delay_seconds = 0.0
        self.during_call = None  # f(call), run before answering
        self._lock = threading.Lock()

    def answer(self, method: str, path: str, headers: dict[str, str], body: bytes) -> Answer:
        if method == "GET":
            query = path.split("?")[1] if "?" in path else ""
            call = Call("GET", path.split("?")[0], headers, dict(parse_qsl(query, keep_blank_values=True)))
            self.calls.append(call)
            status, answer = self.answer_get(call)
            return Answer(status, json.dumps(answer).encode(), {"Content-Type": "application/json"})
        call = Call("POST", path, headers, dict(parse_qsl(body.decode(), keep_blank_values=True)))
        self.calls.append(call)
        status, answer = self.answer_post(call)
        if self.during_call is not None:
            self.during_call(call)
        if self.delay_seconds:
            time.sleep(self.delay_seconds)
        raw = json.dumps(answer).encode()
        return Answer(status, raw, {"Content-Type": "application/json", "Request-Id": "req_" + secrets.token_hex(6)})

    @property
    def url(self) -> str:
        return self.base_url

    def calls_to(self, path: str) -> list[Call]:
        return [call for call in self.calls if call.path == path]

    def fail(self, status: int, *, times: int = 1, message: str = "") -> None:
        """Answer the next `times` calls with `status` (402 card_error, 500 api_error, ...)."""
        kind = "api_error" if status >= 500 else "card_error" if status == 402 else "invalid_request_error"
        self.failures += [(status, {"type": kind, "message": message or f"Stand-in {status}"})] * times

    def answer_get(self, call: Call) -> tuple[int, dict]:
        """GET /v1/payment_intents/{id}: the intent as the processor holds it now."""
        with self._lock:
            if self.failures:
                status, error = self.failures.pop(0)
                return status, {"error": error}
            parts = call.path.split("/")
            intent = self.intents.get(parts[3]) if call.path.startswith("/v1/payment_intents/") else None
            account = call.headers.get("Stripe-Account")
            if intent is None or self.intent_accounts.get(intent["id"]) != account:
                message = f"No such payment_intent: '{parts[-1]}'"
                return 404, {"error": {"type": "invalid_request_error", "code": "resource_missing", "message": message}}
            found = dict(intent)
            if "latest_charge" in found and call.params.get("expand[0]") != "latest_charge":
                found["latest_charge"] = found["latest_charge"]["id"]  # the id, unless expanded
            return 200, found

    card = {"brand": "mastercard", "last4": "4444"}  # the card every charge is made with

    def succeed(self, intent_id: str) -> dict:
        """The customer's card was charged: the intent succeeded (the event may or may not follow)."""
        intent = self.intents[intent_id]
        intent.update(status="succeeded", amount_received=intent["amount"], last_payment_error=None)
        intent["latest_charge"] = self._charge(intent_id)
        return intent

    def _charge(self, intent_id: str) -> dict:
        return {
            "id": "ch_" + intent_id.removeprefix("pi_"),
            "object": "charge",
            "payment_method_details": {"type": "card", "card": dict(self.card)},
        }

    def charge(self, payment) -> dict:
        """The intent of `payment` succeeded, whether this stand-in made it or not (factories)."""
        if payment.intent_id in self.intents:
            return self.succeed(payment.intent_id)
        return self.holds(payment, status="succeeded")

    def decline(self, intent_id: str, message: str = "Your card was declined.") -> dict:
        """A card was declined: the intent waits for another one, with the error."""
        intent = self.intents[intent_id]
        error = {"type": "card_error", "code": "card_declined", "message": message}
        intent.update(status="requires_payment_method", last_payment_error=error)
        return intent

    def holds(self, payment, *, status: str = "succeeded") -> dict:
        """Make the stand-in hold the intent of a payment made without it (factories), as the
        processor would: its account, amount and currency, in `status`."""
        intent = {
            "id": payment.intent_id,
            "object": "payment_intent",
            "amount": payment.amount_cents,
            "amount_received": payment.amount_cents if status == "succeeded" else 0,
            "currency": payment.currency.lower(),
            "status": status,
            "client_secret": payment.client_secret,
            "last_payment_error": None,
            "metadata": {},
        }
        if status == "succeeded":
            intent["latest_charge"] = self._charge(payment.intent_id)
        self.intents[payment.intent_id] = intent
        self.intent_accounts[payment.intent_id] = payment.account_id
        return intent

    def answer_post(self, call: Call) -> tuple[int, dict]:
        with self._lock:
            if self.fail_next is not None:
                error, self.fail_next = self.fail_next, None
                return 402, {"error": error}
            if self.failures:
                status, error = self.failures.pop(0)
                return status, {"error": error}
            key = call.headers.get("Idempotency-Key")
            if key and key in self.by_idempotency_key:
                return 200, self.by_idempotency_key[key]
            body = self._handle(call)
            if key:
                self.by_idempotency_key[key] = body
            return 200, body

    def _handle(self, call: Call) -> dict:
        p, path = call.params, call.path
        if path == "/v1/payment_intents":
            intent_id = "pi_" + secrets.token_hex(8)
            intent = {
                "id": intent_id,
                "object": "payment_intent",
                "amount": int(p["amount"]),
                "currency": p["currency"],
                "status": "requires_payment_method",
                "client_secret": f"{intent_id}_secret_{secrets.token_hex(8)}",
                "application_fee_amount": int(p["application_fee_amount"]) if "application_fee_amount" in p else None,
                "metadata": {k[9:-1]: v for k, v in p.items() if k.startswith("metadata[")},
                "last_payment_error": None,
            }
            self.intents[intent_id] = intent
            self.intent_accounts[intent_id] = call.headers.get("Stripe-Account")
            return intent
        if path.startswith("/v1/payment_intents/") and path.endswith("/cancel"):
            intent = self.intents[path.split("/")[3]]
            intent["status"] = "canceled"
            return intent
        if path == "/v1/refunds":
            intent = self.intents[p["payment_intent"]]
            amount = int(p.get("amount", intent["amount"]))
            return {"id": "re_" + secrets.token_hex(8), "object": "refund", "amount": amount, "status": "succeeded"}
        if path == "/v1/accounts":
            return {"id": "acct_" + secrets.token_hex(8), "object": "account", "charges_enabled": False}
        if path == "/v1/account_links":
            return {"object": "account_link", "url": f"https://connect.example/setup/{p['account']}"}
        return {"id": "unknown", "object": "unknown"}
