"""Input helpers shared by every surface's views."""

from typing import Any

from django.http import HttpRequest
from rest_framework import serializers

from apps.core.client_address import caller_address


def validated(serializer_class: type[serializers.Serializer[Any]], data: object) -> dict[str, Any]:
    """Validate a request body or query with a small input serializer; errors become 422."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    checked: dict[str, Any] = serializer.validated_data  # DRF types it Any; a Serializer's is a dict
    return checked


def client_ip(request: HttpRequest) -> str:
    """The caller's address (apps.core.client_address: only a peer in TRUSTED_PROXIES may name
    the caller in X-Forwarded-For)."""
    return caller_address(request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR", ""))
