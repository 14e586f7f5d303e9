"""Input helpers shared by every surface's views."""

from django.conf import settings
from django.http import HttpRequest
from rest_framework import serializers


def validated(serializer_class: type[serializers.Serializer], data) -> dict:
    """Validate a request body or query with a small input serializer; errors become 422."""
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def client_ip(request: HttpRequest) -> str:
    """The caller's address; the first X-Forwarded-For hop only when a trusted proxy sets it."""
    if settings.SECURE_PROXY_SSL_HEADER and request.META.get("HTTP_X_FORWARDED_FOR"):
        return request.META["HTTP_X_FORWARDED_FOR"].split(",")[0].strip()
    return request.META.get("REMOTE_ADDR", "")
