"""A webhook receiver the project serves outside production (`/demo-webhooks/receiver`), so the
demo's webhooks go somewhere real: seed_demo subscribes the demo burger owner to every event
here, and the owner sees each delivery (status, attempts, answer) in the panel's Webhooks page.
It answers 200 to any signed-looking POST of at most 256 KiB and keeps nothing."""

import json

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

MAX_BODY_BYTES = 256 * 1024
RECEIVER_PATH = "/demo-webhooks/receiver"


@csrf_exempt
def demo_webhook_receiver(request: HttpRequest) -> JsonResponse:
    if request.method != "POST":
        return JsonResponse({"error": "POST a webhook delivery here."}, status=405, headers={"Allow": "POST"})
    if len(request.body) > MAX_BODY_BYTES:
        return JsonResponse({"error": "The delivery is larger than 256 KiB."}, status=413)
    if not request.headers.get("Webhook-Signature") and not request.headers.get("Webhook-Id"):
        return JsonResponse({"error": "Not a webhook delivery (no Webhook-Id or Webhook-Signature)."}, status=400)
    try:
        event = json.loads(request.body).get("event", "")
    except (ValueError, AttributeError):
        return JsonResponse({"error": "The body is not a JSON object."}, status=400)
    return JsonResponse({"received": True, "event": event})
