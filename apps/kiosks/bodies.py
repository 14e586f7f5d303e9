"""Bodies of kiosks shared by responses, the OpenAPI schema and real-time messages: each shape
defined once, as a TypedDict its builder returns; the serializer documenting it is derived
(apps/core/body_shapes.py)."""

from typing import TypedDict

from apps.core.body_shapes import serializer_for
from apps.kiosks.models import Kiosk


class KioskBriefBody(TypedDict):
    id: str
    name: str
    location: str | None


KioskBrief = serializer_for(KioskBriefBody, "KioskBrief")


def kiosk_brief(kiosk: Kiosk) -> KioskBriefBody:
    return {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location or None}
