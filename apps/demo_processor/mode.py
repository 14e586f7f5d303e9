"""Which processor the kiosk pays through, for the kiosk app's payment adapter: `demo` (this
project's /demo-processor/, a card number form) or `live` (the processor's browser library with
the publishable key on the owner's connected account)."""

from typing import Literal, TypedDict

from django.conf import settings
from django.urls import reverse

NOTICE = "Demo payments: no money moves."


class KioskProcessor(TypedDict):
    """How the kiosk app pays (apps.billing.api.kiosk.KioskProcessorOut documents it)."""

    mode: Literal["live", "demo"]
    publishable_key: str
    confirm_url: str | None
    notice: str | None


def active() -> bool:
    """Payments go to the demo processor (not to a configured processor or a test stand-in)."""
    return settings.DEMO_PROCESSOR and settings.PROCESSOR_API_BASE.rstrip("/").endswith(settings.DEMO_PROCESSOR_PATH)


def kiosk_processor(intent_id: str) -> KioskProcessor:
    """`processor` in GET /api/public/sessions/{id}/payment and in PaymentRequested."""
    if not active():
        return {
            "mode": "live",
            "publishable_key": settings.PROCESSOR_PUBLISHABLE_KEY,
            "confirm_url": None,
            "notice": None,
        }
    return {
        "mode": "demo",
        "publishable_key": settings.PROCESSOR_PUBLISHABLE_KEY,
        "confirm_url": reverse("demo_processor:confirm", args=[intent_id]),
        "notice": NOTICE,
    }
