"""Bodies of kiosks shared by responses, the OpenAPI schema and real-time messages: one builder
and the serializer that documents it (docs/decisions.md "One definition per shape")."""

from rest_framework import serializers

from apps.core.body_fields import OptionalTextField
from apps.kiosks.models import Kiosk


# The schema of `kiosk_brief`.
class KioskBrief(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    location = OptionalTextField()


def kiosk_brief(kiosk: Kiosk) -> dict:
    return {"id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location or None}
