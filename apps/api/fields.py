"""Serializer fields whose validation matches what the OpenAPI schema says they take."""

from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A string field that refuses numbers and booleans: DRF's CharField turns `5` into "5",
    while the schema (type: string) promises that a number is refused."""

    default_error_messages = {"not_a_string": "Not a valid string."}

    def to_internal_value(self, data: object) -> str:
        if not isinstance(data, str):
            self.fail("not_a_string")
        return super().to_internal_value(data)
