"""Events from the demo processor to the service, as the processor sends them: a JSON event,
signed with PROCESSOR_CONNECT_WEBHOOK_SECRET in the Stripe-Signature header, handed to the
service's own /processor/connect/webhook view, whose signature check and handling run as for a
real delivery. In-process rather than over HTTP: the answer to the kiosk's confirm then already
reflects the order's new state, and no second request ties up a server thread. The view is found
by its URL, as a real processor finds it, so this app does not import billing (which imports it)."""

import json
import logging
import secrets
import time

import stripe
from django.conf import settings
from django.core.handlers.wsgi import WSGIRequest
from django.test import RequestFactory
from django.urls import resolve

from apps.demo_processor.errors import ProcessorJson

log = logging.getLogger(__name__)
WEBHOOK_PATH = "/processor/connect/webhook"


def signed_request(payload: str, secret: str) -> WSGIRequest:
    header = stripe.WebhookSignature.generate_signature_header(payload, secret)
    return RequestFactory().post(
        WEBHOOK_PATH, payload, content_type="application/json", headers={"Stripe-Signature": header}
    )


def signing_secret() -> str:
    return settings.PROCESSOR_CONNECT_WEBHOOK_SECRET


def send(event_type: str, obj: ProcessorJson, *, account: str) -> ProcessorJson:
    """Deliver one event; returns the webhook's JSON answer (its `outcome`)."""
    event = {
        "id": "evt_demo_" + secrets.token_hex(10),
        "object": "event",
        "type": event_type,
        "created": int(time.time()),
        "account": account,
        "livemode": False,
        "data": {"object": obj},
    }
    response = resolve(WEBHOOK_PATH).func(signed_request(json.dumps(event), signing_secret()))
    answer: ProcessorJson = json.loads(response.content)  # the webhook view answers a JSON object
    if response.status_code != 200:
        log.warning("demo processor event %s refused: %s", event_type, answer)
    return answer
