"""Serializer fields shared by the bodies of every app and surface (core is a leaf: DRF only)."""

from typing import Any

from rest_framework import serializers


class OptionalTextField(serializers.CharField):
    """A URL or location that may be absent: stored as "" (Django's blank), rendered and documented
    as null (docs/decisions/api.md "Absent URLs and locations")."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("allow_null", True)
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str | None:  # type: ignore[override]  # null is the point
        return super().to_representation(value) if value else None
