"""Inbound processor webhooks: POST /processor/webhook (subscription billing) and
POST /processor/connect/webhook (customer payments on connected accounts).

Each is verified by the `stripe` library against its own signing secret; a bad or stale
signature answers 400 and changes nothing.
"""

import json

import stripe
from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from apps.billing import processor_events


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


def _receive(request, secret: str, endpoint: str) -> JsonResponse:
    if not secret:
        return _error(503, "PROCESSOR_NOT_CONFIGURED", "This endpoint has no signing secret configured.")
    # The processor sends Stripe-Signature; the spec renders it Processor-Signature: accept both.
    signature = request.headers.get("Stripe-Signature") or request.headers.get("Processor-Signature")
    try:
        stripe.Webhook.construct_event(request.body, signature, secret)
        event = json.loads(request.body)
    except stripe.SignatureVerificationError:
        return _error(400, "INVALID_SIGNATURE", "The signature is missing, invalid or too old.")
    except ValueError:
        return _error(400, "MALFORMED_REQUEST", "The body is not a JSON event.")
    if not isinstance(event, dict) or not {"id", "type", "data"} <= event.keys():
        return _error(400, "MALFORMED_REQUEST", "The body is not a processor event.")
    outcome = processor_events.handle(event, endpoint=endpoint)
    return JsonResponse({"received": True, "outcome": outcome})


@csrf_exempt
@require_POST
def platform_webhook(request):
    return _receive(request, settings.PROCESSOR_WEBHOOK_SECRET, "platform")


@csrf_exempt
@require_POST
def connect_webhook(request):
    return _receive(request, settings.PROCESSOR_CONNECT_WEBHOOK_SECRET, "connect")
