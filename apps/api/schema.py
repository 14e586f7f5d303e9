"""OpenAPI security schemes for the three surfaces' authentication classes."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class DeviceAuthScheme(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.DeviceAuthentication"
    name = ["deviceId", "deviceToken"]

    def get_security_definition(self, auto_schema):
        return [
            {"type": "apiKey", "in": "header", "name": "X-Device-Id"},
            {"type": "apiKey", "in": "header", "name": "X-Device-Token"},
        ]


class AgentSessionScheme(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.AgentSessionAuthentication"
    name = ["agentSession", "xsrfToken"]

    def get_security_definition(self, auto_schema):
        return [
            {"type": "apiKey", "in": "cookie", "name": "app_session"},
            {
                "type": "apiKey",
                "in": "header",
                "name": "X-XSRF-TOKEN",
                "description": "The XSRF-TOKEN cookie's value; required on POST, PUT, PATCH and DELETE.",
            },
        ]


class BearerTokenScheme(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.BearerTokenAuthentication"
    name = "bearerToken"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "Personal access token `{id}|{secret}`."}
