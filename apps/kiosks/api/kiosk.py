"""Kiosk API: pairing (no device headers), the kiosk's own profile and the idle heartbeat."""

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from apps.accounts.models import Business
from apps.api.inputs import validated
from apps.api.throttles import PairingThrottle
from apps.api.views import PublicAPIView
from apps.core.body_fields import OptionalTextField
from apps.kiosks import selectors, services
from apps.kiosks.api.base import KioskAPIView, KioskRequest
from apps.kiosks.models import REACH_MM


class PairIn(serializers.Serializer[None]):
    code = serializers.RegexField(r"^\d{6}$", error_messages={"invalid": "Enter the 6-digit pairing code."})
    device_id = serializers.UUIDField()
    device_name = serializers.CharField(max_length=200)


class PairOut(serializers.Serializer[None]):
    kiosk_id = serializers.CharField()
    device_token = serializers.CharField()
    business = inline_serializer("PairedBusiness", {"name": serializers.CharField(), "logo_url": OptionalTextField()})
    settings = inline_serializer(
        "KioskSettings", {"primary_color": serializers.CharField(), "attract_message": serializers.CharField()}
    )


def _business_and_settings(business: Business) -> dict[str, dict[str, str | None]]:
    return {
        "business": {"name": business.name, "logo_url": business.logo_url or None},
        "settings": {"primary_color": business.primary_color, "attract_message": business.attract_message},
    }


class PairView(PublicAPIView):
    throttle_classes = [PairingThrottle]

    @extend_schema(
        request=PairIn,
        responses={200: PairOut},
        summary="Pair this kiosk with a 6-digit code",
        description="403 OWNER_SUSPENDED while the code's owner is suspended; the code stays unused.",
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = validated(PairIn, request.data)
        kiosk, token = services.kiosk_pair(
            code=data["code"], device_id=data["device_id"], device_name=data["device_name"]
        )
        return Response({"kiosk_id": str(kiosk.pk), "device_token": token, **_business_and_settings(kiosk.business)})


class KioskProfileOut(serializers.Serializer[None]):
    kiosk_id = serializers.CharField()
    name = serializers.CharField()
    location = OptionalTextField()
    business = PairOut().fields["business"]
    settings = PairOut().fields["settings"]
    mount = inline_serializer(
        "KioskMount",
        {
            "height_mm": serializers.IntegerField(help_text="The screen's bottom edge above the floor."),
            "screen_height_mm": serializers.IntegerField(help_text="The screen's visible height."),
            "reach_mm": serializers.IntegerField(help_text="Accessible mode keeps every control below this height."),
        },
    )


class KioskProfileView(KioskAPIView):
    """The pairing result's business and settings as they are now (the owner may have changed
    them since), so a kiosk app shows them without pairing again."""

    @extend_schema(
        responses={200: KioskProfileOut},
        summary="This kiosk, its business and its settings as they are now",
    )
    def get(self, request: KioskRequest) -> Response:
        kiosk = selectors.kiosk_profile(request.auth)
        body = {"kiosk_id": str(kiosk.pk), "name": kiosk.name, "location": kiosk.location or None}
        mount = {"height_mm": kiosk.mount_height_mm, "screen_height_mm": kiosk.screen_height_mm, "reach_mm": REACH_MM}
        return Response({**body, **_business_and_settings(kiosk.business), "mount": mount})


HEARTBEAT_ANSWER = {"ok": True}  # also the kiosk hot path's (apps.kiosk_app.hot_path)


class HeartbeatView(KioskAPIView):
    """Authentication itself records the heartbeat; this endpoint is for idle kiosks."""

    @extend_schema(
        request=None,
        responses={200: inline_serializer("HeartbeatOut", {"ok": serializers.BooleanField()})},
        summary="Tell the service this kiosk is alive",
    )
    def post(self, request: KioskRequest) -> Response:
        return Response(HEARTBEAT_ANSWER)
