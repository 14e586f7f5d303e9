"""The kiosk surface's base view: every kiosk API endpoint, whichever app serves it, derives from
KioskAPIView. It lives with the device credentials it checks (docs/decisions/structure.md "Layers")."""

from typing import TYPE_CHECKING, cast

from rest_framework.request import Request
from rest_framework.views import APIView

from apps.api.permissions import IsKiosk
from apps.api.throttles import KioskThrottle
from apps.api.views import MethodCheckedFirst
from apps.kiosks.api import kiosk_request
from apps.kiosks.api.authentication import DeviceAuthentication

# What the surface's authentication and permission classes guarantee about its requests, for the
# type checker (DRF types `auth` for any scheme): at runtime it is DRF's Request.
if TYPE_CHECKING:
    from apps.api.typed_request import SurfaceRequest
    from apps.kiosks.models import Kiosk

    # After DeviceAuthentication and IsKiosk: `auth` is the Kiosk (and `user` None: a device is no user).
    KioskRequest = SurfaceRequest[None, Kiosk]
else:
    KioskRequest = Request


class KioskAPIView(MethodCheckedFirst, APIView):
    """Kiosk API: `request.auth` is the authenticated Kiosk."""

    # The request's steps (read, then authenticate, then heartbeat; the throttle after) are
    # apps.kiosks.api.kiosk_request's (a comment: this docstring is each kiosk operation's description).

    authentication_classes = [DeviceAuthentication]
    permission_classes = [IsKiosk]
    throttle_classes = [KioskThrottle]

    def perform_authentication(self, request: Request) -> None:
        found = kiosk_request.read_request(request)
        super().perform_authentication(request)
        if found is not None and request.auth is not None:
            kiosk_request.record_heartbeat(cast("Kiosk", request.auth), found)  # DeviceAuthentication's
