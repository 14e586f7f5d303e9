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


class StrictBooleanField(serializers.BooleanField):
    """A boolean field that takes only true and false: DRF's BooleanField also takes 0, 1, "yes"
    and "on", while the schema (type: boolean) promises they are refused."""

    default_error_messages = {"not_a_boolean": "Must be true or false."}

    def to_internal_value(self, data: object) -> bool:
        if not isinstance(data, bool):
            self.fail("not_a_boolean")
        return data
