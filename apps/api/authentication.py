"""The three authentication classes, one per surface (spec section 5)."""

from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.api import xsrf


class DeviceAuthentication(authentication.BaseAuthentication):
    """Kiosk API: X-Device-Id + X-Device-Token. Any failure is 401 DEVICE_TOKEN_INVALID.

    Every authenticated request counts as a heartbeat (coalesced, see kiosks.services).
    """

    def authenticate(self, request: Request):
        from apps.kiosks import selectors, services

        device_id = request.headers.get("X-Device-Id", "")
        token = request.headers.get("X-Device-Token", "")
        if not device_id or not token:
            raise exceptions.NotAuthenticated("The X-Device-Id and X-Device-Token headers are required.")
        kiosk = selectors.kiosk_for_device_credentials(device_id=device_id, token=token)
        if kiosk is None:
            raise exceptions.AuthenticationFailed("The device token is invalid or has been revoked.")
        services.kiosk_record_heartbeat(kiosk=kiosk)
        return (None, kiosk)

    def authenticate_header(self, request: Request) -> str:
        return "Device"


class AgentSessionAuthentication(authentication.BaseAuthentication):
    """Agent API: the `app_session` cookie session of an active agent user, plus X-XSRF-TOKEN."""

    def authenticate(self, request: Request):
        user = getattr(request._request, "user", None)
        if user is None or not user.is_authenticated or not user.is_active or not user.is_agent:
            return None
        xsrf.enforce(request._request)
        return (user, None)

    def authenticate_header(self, request: Request) -> str:
        return "Session"


class BearerTokenAuthentication(authentication.BaseAuthentication):
    """Token API: `Authorization: Bearer {id}|{secret}` personal access tokens."""

    def authenticate(self, request: Request):
        from apps.accounts import selectors

        header = request.headers.get("Authorization", "")
        scheme, _, raw_token = header.partition(" ")
        if scheme.lower() != "bearer" or not raw_token.strip():
            return None
        access_token = selectors.access_token_for_bearer(raw_token.strip())
        if access_token is None:
            raise exceptions.AuthenticationFailed("The access token is invalid or has been revoked.")
        return (access_token.user, access_token)

    def authenticate_header(self, request: Request) -> str:
        return "Bearer"
