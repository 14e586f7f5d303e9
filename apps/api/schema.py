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


class OwnerApiKeyScheme(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.OwnerApiKeyAuthentication"
    name = "ownerApiKey"

    def get_security_definition(self, auto_schema):
        from apps.owner_api.scopes import ALL_SCOPES

        return {
            "type": "oauth2",
            "description": (
                "Owner API keys: exchange the key's client id and secret (HTTP Basic or form fields) for a "
                "short-lived bearer token with the client-credentials grant."
            ),
            "flows": {"clientCredentials": {"tokenUrl": "/api/owner/oauth/token", "scopes": dict(ALL_SCOPES)}},
        }

    def get_security_requirement(self, auto_schema):
        scope = getattr(auto_schema.view, "required_scopes", {}).get(auto_schema.method)
        return {self.name: [scope] if scope else []}
