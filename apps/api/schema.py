"""OpenAPI for the API surfaces: the security scheme of the agent's session (each other
authentication class's scheme sits beside that class, in the app owning its credentials), and
the schema class that documents every operation's error responses in its surface's envelope."""

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry
from rest_framework import serializers

from apps.api import schema_errors
from apps.api.authentication import AgentSessionAuthentication
from apps.api.surfaces import Surface, surface_for_path

Schema = dict[str, Any]  # an OpenAPI object, as drf-spectacular types it


def session_cookie_scheme(description: str) -> Schema:
    """Django's session cookie as an OpenAPI security scheme (the agent, panel and screen sign-ins)."""
    return {"type": "apiKey", "in": "cookie", "name": settings.SESSION_COOKIE_NAME, "description": description}


class AgentSessionScheme(OpenApiAuthenticationExtension):
    target_class = AgentSessionAuthentication
    name = ["agentSession", "xsrfToken"]

    def get_security_definition(self, auto_schema: AutoSchema) -> list[Schema]:
        return [
            session_cookie_scheme("A signed-in agent (POST /api/login)."),
            {
                "type": "apiKey",
                "in": "header",
                "name": "X-XSRF-TOKEN",
                "description": "The XSRF-TOKEN cookie's value; required on POST, PUT, PATCH and DELETE.",
            },
        ]


# --- Error responses -----------------------------------------------------------------------


class ErrorDetail(serializers.Serializer[Any]):
    code = serializers.CharField(help_text="A stable error code, e.g. VALIDATION_ERROR.")
    message = serializers.CharField()
    details = serializers.JSONField(required=False, help_text="Field -> messages, on 422 and some others.")


class Error(serializers.Serializer[Any]):
    """The agent, token and owner API error envelope `{error: {code, message}}`."""

    error = ErrorDetail()


class KioskErrorDetail(ErrorDetail):
    request_id = serializers.CharField(allow_null=True, help_text="The X-Request-Id of this request.")


class KioskError(serializers.Serializer[Any]):
    """The kiosk API error envelope `{error: {code, message, request_id}}`."""

    error = KioskErrorDetail()


_PERMISSION_CODES: dict[str, list[str]] = {
    "HasOwnerToken": [schema_errors.E.FORBIDDEN],
    "HasRequiredScope": [schema_errors.INSUFFICIENT_SCOPE],
}
_HEADERS = {
    401: {"WWW-Authenticate": {"schema": {"type": "string"}, "description": "The authentication scheme."}},
    429: {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
    503: {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
}


def _allow_empty(parameter: Schema) -> None:
    """DRF reads an optional field sent empty in a query string (`?status=`, what an HTML form
    sends for a blank field) as absent; say so, so that `status=` is not taken for invalid."""
    parameter["allowEmptyValue"] = True
    parameter["schema"] = {"anyOf": [parameter["schema"], {"type": "string", "enum": [""]}]}
    parameter["description"] = (parameter.get("description", "") + "\n\nEmpty means absent.").strip()


class SurfaceAutoSchema(AutoSchema):
    """DEFAULT_SCHEMA_CLASS: every operation also documents the error responses it can give, in
    its surface's envelope, with the codes each status carries. A status the view documents
    itself (e.g. the OAuth token endpoint's RFC 6749 errors) is left as the view wrote it."""

    def get_operation(
        self, path: str, path_regex: str, path_prefix: str, method: str, registry: ComponentRegistry
    ) -> Schema | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "query" and not parameter.get("required"):
                _allow_empty(parameter)
        responses = operation["responses"]
        envelope = KioskError if surface_for_path(self.path) == Surface.KIOSK else Error
        for status, codes in sorted(self._error_codes(operation).items()):
            if str(status) in responses:
                continue
            response = self._error_response(envelope)
            response["description"] = "Error codes: " + ", ".join(f"`{code}`" for code in codes) + "."
            if status in _HEADERS:
                response["headers"] = _HEADERS[status]
            responses[str(status)] = response
        return operation

    def _error_response(self, envelope: type[serializers.Serializer[Any]]) -> Schema:
        """An error response in the surface's envelope, through AutoSchema's public methods (the
        component reference of the envelope serializer, one content entry per renderer)."""
        schema = self.resolve_serializer(envelope, "response").ref
        return {"content": {media_type: {"schema": schema} for media_type in self.map_renderers("media_type")}}

    def _error_codes(self, operation: Schema) -> dict[int, list[str]]:
        locations = {parameter["in"] for parameter in operation.get("parameters", [])}
        authenticators = self.view.get_authenticators()
        permission_codes = [
            code for p in self.view.get_permissions() for code in _PERMISSION_CODES.get(type(p).__name__, [])
        ]
        codes = schema_errors.generic_errors(
            surface=surface_for_path(self.path),
            method=self.method,
            authenticated=bool(authenticators),
            session_auth=any(isinstance(a, AgentSessionAuthentication) for a in authenticators),
            throttled=bool(self.view.get_throttles()),
            has_body="requestBody" in operation,
            has_query="query" in locations,
            has_path="path" in locations,
            permission_codes=permission_codes,
        )
        codes += schema_errors.DOMAIN_ERRORS.get(f"{self.method} {self.path}", [])
        by_status: dict[int, list[str]] = {}
        for code in dict.fromkeys(str(c) for c in codes):
            by_status.setdefault(schema_errors.status_of(code), []).append(code)
        return by_status
