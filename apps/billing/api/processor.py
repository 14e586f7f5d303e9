"""Inbound processor webhooks: POST /processor/webhook (subscription billing) and
POST /processor/connect/webhook (customer payments on connected accounts).

Each is verified by the `stripe` library against its own signing secret; a bad or stale
signature answers 400 and changes nothing. A signed body is then parsed within the API's JSON
limits (apps.api.parsers) and its shape checked (processor_events.validate_event) before
anything is recorded: a malformed event is 400 MALFORMED_REQUEST and leaves no trace. Every
answer, errors included, is JSON in the agent API's `{error: {code, message}}` envelope.
"""

import logging
import time

import stripe
from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from apps.api import parsers
from apps.api.errors import too_large
from apps.billing.services import processor_events
from apps.core.errors import STATUS_BY_CODE, DomainError, ErrorCode

log = logging.getLogger(__name__)


def _error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JsonResponse:
    return JsonResponse({"error": {"code": str(code), "message": message}}, status=status, headers=headers)


def _malformed(message: str) -> JsonResponse:
    return _error(400, ErrorCode.MALFORMED_REQUEST, message)


def _signed_in_the_future(header: str) -> bool:
    """The library refuses signatures older than its tolerance, not newer ones: one dated beyond
    PROCESSOR_WEBHOOK_FUTURE_TOLERANCE seconds ahead of our clock is refused too, so a signed body
    cannot be kept for replay long after it was made. The header passed the library's check, so its
    `t=` is an integer."""
    stamps = [int(item[2:]) for item in header.split(",") if item.startswith("t=") and item[2:].isdigit()]
    return not stamps or stamps[0] > time.time() + settings.PROCESSOR_WEBHOOK_FUTURE_TOLERANCE


def _receive(request: HttpRequest, secret: str, endpoint: str) -> JsonResponse:
    if request.method != "POST":
        return _error(405, ErrorCode.METHOD_NOT_ALLOWED, f'Method "{request.method}" not allowed.', {"Allow": "POST"})
    if not secret:
        return _error(503, "PROCESSOR_NOT_CONFIGURED", "This endpoint has no signing secret configured.")
    try:
        payload = request.body.decode("utf-8")
    except RequestDataTooBig as exc:
        code, message, _, _ = too_large(exc)
        return _error(STATUS_BY_CODE[code], code, message)
    except UnicodeDecodeError:
        return _malformed("The body is not UTF-8 text.")
    # The processor sends Stripe-Signature; the spec renders it Processor-Signature: accept both.
    signature = request.headers.get("Stripe-Signature") or request.headers.get("Processor-Signature") or ""
    try:
        stripe.WebhookSignature.verify_header(payload, signature, secret, stripe.Webhook.DEFAULT_TOLERANCE)
    except stripe.SignatureVerificationError:
        return _error(400, "INVALID_SIGNATURE", "The signature is missing, invalid or too old.")
    if _signed_in_the_future(signature):
        return _error(400, "INVALID_SIGNATURE", "The signature is dated in the future.")
    try:
        event = processor_events.validate_event(parsers.loads(payload))
    except parsers.BodyRejected as exc:
        return _malformed(str(exc))
    except processor_events.MalformedEvent as exc:
        return _malformed(f"The body is not a processor event: {exc}")
    except ValueError:
        return _malformed("The body is not a JSON event.")
    try:
        outcome = processor_events.handle(event, endpoint=endpoint)
    except DomainError as exc:  # the processor could not be asked: not recorded, redelivered later
        return _error(STATUS_BY_CODE[exc.code], exc.code, exc.message, exc.headers)
    if outcome.startswith("refused"):
        log.warning("processor event %s (%s) refused: %s", event["id"], event["type"], outcome)
    return JsonResponse({"received": True, "outcome": outcome})


@csrf_exempt
def platform_webhook(request: HttpRequest) -> JsonResponse:
    return _receive(request, settings.PROCESSOR_WEBHOOK_SECRET, "platform")


@csrf_exempt
def connect_webhook(request: HttpRequest) -> JsonResponse:
    return _receive(request, settings.PROCESSOR_CONNECT_WEBHOOK_SECRET, "connect")
