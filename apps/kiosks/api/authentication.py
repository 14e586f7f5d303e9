"""The kiosk surface's authentication: X-Device-Id + X-Device-Token, checked against the device
credentials this app owns (docs/decisions/structure.md "Layers": apps/api, below the domain apps, knows no
kiosk). Any failure is 401 DEVICE_TOKEN_INVALID."""

import uuid

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from apps.kiosks import selectors
from apps.kiosks.models import Kiosk, hash_device_token
from apps.kiosks.selectors import DeviceCredentials

_DEVICE_TOKEN_INVALID = "The device token is invalid or has been revoked."


def device_presented(device_id: str, token: str) -> tuple[uuid.UUID, str]:
    """The device id and the hash of the token a kiosk request presents (its X-Device-Id and
    X-Device-Token headers); NotAuthenticated or AuthenticationFailed (401) when malformed."""
    if not device_id or not token:
        raise exceptions.NotAuthenticated("The X-Device-Id and X-Device-Token headers are required.")
    try:
        device_uuid = uuid.UUID(device_id)
    except ValueError:
        raise exceptions.AuthenticationFailed(_DEVICE_TOKEN_INVALID) from None
    return device_uuid, hash_device_token(token)


def device_refused(credentials: DeviceCredentials | None) -> DeviceCredentials:
    """The credentials, or AuthenticationFailed (401) when their lookup found no paired kiosk."""
    if credentials is None:
        raise exceptions.AuthenticationFailed(_DEVICE_TOKEN_INVALID)
    return credentials


class DeviceAuthentication(authentication.BaseAuthentication):
    """Kiosk API: X-Device-Id + X-Device-Token.

    It only authenticates: the request's cache round trip (which also counts its rate window),
    its heartbeat and its throttling are steps of their own (apps.kiosks.api.kiosk_request), run
    by KioskAPIView around it and by the kiosk hot path.
    """

    def authenticate(self, request: Request) -> tuple[None, Kiosk]:
        device_uuid, token_hash = device_presented(
            request.headers.get("X-Device-Id", ""), request.headers.get("X-Device-Token", "")
        )
        found = getattr(request, "kiosk_read", None)
        if found is None:  # a view that runs no read step: read the credentials alone
            credentials = selectors.kiosk_for_device_credentials(device_id=device_uuid, token_hash=token_hash)
        else:
            credentials = selectors.credentials_from_cache(
                device_id=device_uuid, token_hash=token_hash, cached=found.cached, count=found.count
            )
        return (None, device_refused(credentials).kiosk)

    def authenticate_header(self, request: Request | None) -> str:
        return "Device"


class DeviceAuthScheme(OpenApiAuthenticationExtension):
    """The OpenAPI security scheme of DeviceAuthentication (drf-spectacular finds it by its class)."""

    target_class = DeviceAuthentication
    name = ["deviceId", "deviceToken"]

    def get_security_definition(self, auto_schema: AutoSchema) -> list[dict[str, str]]:
        return [
            {"type": "apiKey", "in": "header", "name": "X-Device-Id"},
            {"type": "apiKey", "in": "header", "name": "X-Device-Token"},
        ]
